# ruff: noqa: E501  (the questions are data; long lines keep one question per line)
"""Write eval/dev4-questions.jsonl and eval/dev4-followups.jsonl.

Development set 4 (training data, not held out), written from the five seed documents only
(see eval/README.md). The questions are data below; the order of both files is shuffled
with a fixed seed so that folds cut from contiguous id ranges mix documents and kinds.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import write_set  # noqa: E402

SEED = 4_2026

# (doc, kind, q, [gold, ...])
QUESTIONS = [
    # ---- 000 HoW FAQ: paraphrase (9) ----
    (
        "000",
        "paraphrase",
        "Warum soll man die 227-Pfund Bombe eher als Reaktion spielen und nicht gleich als eigene Aktion?",
        [
            "da so auch die Fähigkeiten der attackierten Basisausbauten nicht mehr benutzt werden können"
        ],
    ),
    (
        "000",
        "paraphrase",
        "B will mit seinem Flugboot mein Schiff sperren. Kann ich als Antwort darauf schnell den Angriff mit diesem Schiff deklarieren?",
        [
            "Durch die Aktion, dass zum Beispiel ein Flugboot ein Schiff sperren will, wird ein Aktionsstapel eröffnet der vor der Angriffsdeklaration erfolgt"
        ],
    ),
    (
        "000",
        "paraphrase",
        "Darf eine meiner Einheiten, die im selben Land steht, einen Bomber blocken, der von dort aus meine Basis angreift?",
        [
            "nicht aber durch feindliche Einheiten im selben Land wie die angreifende Einheit mit Basisschaden"
        ],
    ),
    (
        "000",
        "paraphrase",
        "Gegenüber legt etwas zum Bauen verdeckt hin – ist Explosive Landung als Konter zulässig?",
        [
            "Da ein Bauvorhaben (das Auslegen einer Karte zum Bauen) eine Aktion darstellt, darf mit der Explosiven Landung darauf reagiert werden."
        ],
    ),
    (
        "000",
        "paraphrase",
        "Verändert ein Upgrade die Gesamtkosten einer Einheit, wenn eine Zerstören-Aktionskarte nach Kosten fragt?",
        ["Ein Upgrade verändert NICHT die Gesamtkosten der modifizierten Einheit"],
    ),
    (
        "000",
        "paraphrase",
        "Wer sagt, dass ein Abschnitt der Runde zu Ende ist?",
        ["Eine Phase beginnt bzw. endet, wenn die Spieler dies übereinstimmend erklären."],
    ),
    (
        "000",
        "paraphrase",
        "Meine eingegrabene Einheit zieht sich zurück. Wann verliert sie ihre Verteidigungsmarker?",
        ["werden alle Verteidigungsmarker zu Beginn der nachfolgenden Phase sofort entfernt"],
    ),
    (
        "000",
        "paraphrase",
        "Wie spielt man HoW zu dritt im Grundsatz, wenn es keine offiziellen Regeln dafür gibt?",
        [
            "Es wird wie ein normales Einzelspielerspiel gespielt, mit dem Unterschied, dass ein weiterer Spieler dabei ist"
        ],
    ),
    (
        "000",
        "paraphrase",
        "Darf ein ungeblockter Angreifer seinen Schaden auch auf eine Einheit legen, die gerade einen anderen Angreifer blockt?",
        ["(auch eine solche, die eine andere angreifende Einheit blockt)"],
    ),
    # ---- 000 colloquial (9) ----
    (
        "000",
        "colloquial",
        "muss ich ne AK schon beim vorzeigen bezahlen oder erst wenn sie im stapel drankommt",
        [
            "Erst wenn eine Aktion im Aktionsstapel an die Reihe kommt und noch existent ist, wird sie auch bezahlt"
        ],
    ),
    (
        "000",
        "colloquial",
        "kann ich zwei reaktionen hintereinander raushauen oder is nach einer schluss",
        ["WICHTIG: Es muss nicht zwingend nur eine Reaktion auf eine Aktion erfolgen."],
    ),
    (
        "000",
        "colloquial",
        "bomber hat zahle einmalig 3 tw für noch nen basisausbau – geht das bei jedem angriff wieder?",
        [
            "dass man je Angriff genau einmal erneut 3 TW bezahlen kann, um einen zweiten Basisausbau zu zerstören"
        ],
    ),
    (
        "000",
        "colloquial",
        "mein depot is leer, fällt die kartenziehphase dann einfach weg",
        ["jedoch nicht die Kartenziehphase an sich"],
    ),
    (
        "000",
        "colloquial",
        "kann die takao eigentlich zwei schiffe auf einmal blocken",
        ["Die Takao-Klasse hat als Sonderregel, dass sie zwei Schiffe blocken darf."],
    ),
    (
        "000",
        "colloquial",
        "wir spielen 2 gegen 2, wie setzen wir uns hin",
        ["Die Mannschaften sitzen sich gegenüber (also nicht über Kreuz"],
    ),
    (
        "000",
        "colloquial",
        "was darf überhaupt in der aufmarschzone rumstehen",
        [
            "In der Aufmarschzone dürfen sich nur Einheiten befinden, die gebaut oder verlegt wurden."
        ],
    ),
    (
        "000",
        "colloquial",
        "meine flak steht noch in der aufmarschzone, kann die da trotzdem marker kriegen?",
        ["bestimmte Fähigkeiten können aber auch in der Aufmarschzone Verteidigungsmarker geben"],
    ),
    (
        "000",
        "colloquial",
        "baukarte verdeckt hingelegt – hat mein gegenüber da schon ein reaktionsfenster?",
        [
            "Wichtig: Das Auslegen einer Karte zum Bauen gilt als Aktion, auf die reagiert werden darf!"
        ],
    ),
    # ---- 000 jargon (9) ----
    (
        "000",
        "jargon",
        "darf ich dieselbe karte zweimal in einen stack packen",
        ["Karten dürfen nur einmal im Aktionsstapel vorkommen."],
    ),
    (
        "000",
        "jargon",
        "zählt basisschaden, der mich karten vom deck schmeißen lässt, als discard für reaktionen?",
        [
            "Basisschaden z.B., der zum Entfernen von Karten vom Depot zwingt, löst also keine Effekte aus"
        ],
    ),
    (
        "000",
        "jargon",
        "kann ich auf jeden einzelnen basisschaden mit ner reaktion antworten oder ist das alles ein großer stack",
        [
            "Jeder Basisschaden bildet einen eigenen Aktionsstapel, auf den selbstverständlicherweise reagiert werden kann."
        ],
    ),
    (
        "000",
        "jargon",
        "kommen basisausbauten normal getappt oder untapped ins spiel",
        ["da laut Regeln Basisausbauten ohnehin immer ungesperrt ins Spiel kommen"],
    ),
    (
        "000",
        "jargon",
        "buddeln sich frisch gebaute truppen schon in der bereitstellung ein oder erst im land?",
        ["Eingraben! kann NUR in Ländern geschehen, nicht in der Aufmarschzone!"],
    ),
    (
        "000",
        "jargon",
        "zählt ein jabo auch als jäger, wenn einer vorteil gegen jäger hat?",
        ["Jagdbomber zählen sowohl als Jäger wie auch als Bomber."],
    ),
    (
        "000",
        "jargon",
        "wie groß ist das handlimit und wann wird abgeworfen",
        ["In der Endphase findet eine Begrenzung auf 8 Handkarten statt."],
    ),
    ("000", "jargon", "wann ist die move-phase vom verteidiger", ["Verlegungsphase (Verteidiger)"]),
    (
        "000",
        "jargon",
        "kommt nur kaputtes zeug auf den friedhof oder noch anderes",
        ["bzw. wenn Kartentexte oder Spielregeln eine Karte dem Schrottplatz zuweisen"],
    ),
    # ---- 000 keyword (9) ----
    (
        "000",
        "keyword",
        "aktion bedingung erfüllt auslösen",
        ["Jede beschriebene Bedingung muss erfüllt sein, damit eine Aktion ausgelöst wird."],
    ),
    (
        "000",
        "keyword",
        "aktion tw produktion verhindern",
        ["3) Werden durch eine Aktion TW produziert, so kann dies nicht verhindert werden."],
    ),
    (
        "000",
        "keyword",
        "aktionskarten rand farbe",
        ["Aktionskarten haben einen violetten Abbildungsrand und lösen Aktionen aus."],
    ),
    (
        "000",
        "keyword",
        "basisausbaukarten aufgabe ressourcen",
        [
            "Basisausbaukarten haben grundsätzlich die Aufgabe, für bestimmte Mechanismen (z.B. Bauen, Aktionen) die notwendigen"
        ],
    ),
    (
        "000",
        "keyword",
        "fähigkeiten form aktionen effekte",
        ["Fähigkeiten können in Form von Aktionen oder Effekten wirken."],
    ),
    (
        "000",
        "keyword",
        "flughafen fähigkeit handkarte voraussetzung",
        ["Spiele diese Fähigkeit nur, wenn du mindestens eine Karte auf der Hand hast."],
    ),
    (
        "000",
        "keyword",
        "obertyp randfarbe grün braun blau",
        ["Grün für Landeinheiten, Braun für Flugzeuge und Blau für Schiffe"],
    ),
    (
        "000",
        "keyword",
        "untertyp textzeile unter illustration",
        ["Die Angabe ist in der Textzeile unter der Illustration zu finden."],
    ),
    (
        "000",
        "keyword",
        "upgrade zustand einheit gesperrt ungesperrt",
        ["Auch ändert das Spielen des Upgrades nicht am Zustand der Einheit."],
    ),
    # ---- 000 abbreviation (8) ----
    (
        "000",
        "abbreviation",
        "Kaserne hat meine Inf verbilligt – kann ich später in der Runde noch ein TW aus ihr ziehen?",
        ["um ein TW in einer anderen Phase zu ziehen"],
    ),
    (
        "000",
        "abbreviation",
        "Zerstörer mit Tarnung-hat-keinen-Effekt-Text: kann der S-Boote und U-Boote ganz normal blocken?",
        [
            "Das heißt, dass der entsprechende Zerstörer z.B. Schnellboote und U-Boote mit diesen sonst Schutz bietenden Tarnungen"
        ],
    ),
    (
        "000",
        "abbreviation",
        "227er des Gegners geht auf einen anderen BA, ich hab ne Feuerwehr – verpufft dann seine ganze Fähigkeit?",
        ["es wird nur die Zerstörung des angesagten Basisausbaus verhindert"],
    ),
    (
        "000",
        "abbreviation",
        "BAs ohne Hoheitszeichen aus nem Alliierten-Set in mein Achse-Deck, ok?",
        [
            "also auch die Basis- und Landausbauten, welche sich in Sets der gegnerischen Seite befinden"
        ],
    ),
    (
        "000",
        "abbreviation",
        "Griechenland senkt den VG von Landeinheiten – gilt das auch für meine LAs?",
        ["Effekte, die jedoch explizit den Verteidigungswert von Landeinheiten senken"],
    ),
    (
        "000",
        "abbreviation",
        "Sabo wird nach dem Bezahlen für eine AK gesperrt – ändert das noch was an meinen Baukosten?",
        [
            "Jede jetzt noch erfolgende Änderung des Zustandes der Sabotage (z.B. TW-Ziehen für eine Aktionskarte) hat keine Auswirkung mehr"
        ],
    ),
    (
        "000",
        "abbreviation",
        "AK Begleitjäger zum Retten meines Jägers – ist egal, wann in der Phase ich die spiele?",
        ["In diesem Fall ist es egal, wann innerhalb der Phase Du die AK spielst"],
    ),
    (
        "000",
        "abbreviation",
        "4er-Partie: wie viele Länder und wie viele SP muss jedes Team legen?",
        ["Jede Partei muss 3 Länder legen die in ihrer Summe mindestens 11 Siegpunkte haben"],
    ),
    # ---- 000 typo (9) ----
    (
        "000",
        "typo",
        "zwei ausschlusländer gleichzeitg auslegen erlaubt",
        [
            "Es dürfen KEINE zwei Ausschlussländer gleichzeitig von der selben Spielpartei ausgelegt werden"
        ],
    ),
    (
        "000",
        "typo",
        "bombenprodukton kommt die gesperrt ins spiel",
        ["Diese Basis kommt grundsätzlich immer gesperrt ins Spiel."],
    ),
    (
        "000",
        "typo",
        "kann ein angreifr von mehreren einheitn geblockt werden",
        ["Eine angreifende Einheit kann von mehreren Einheiten geblockt werden."],
    ),
    (
        "000",
        "typo",
        "welche basisausbauten zälen alles als montagen",
        [
            "Alle Montagen (Panzer-, Jäger-, Bomber-... sowie die artgleich funktionierenden Kaserne, Werft etc.)"
        ],
    ),
    (
        "000",
        "typo",
        "französiche alpen darf da ein panzer rein",
        [
            "Die Folge ist, dass wirklich NUR jene Einheiten ins Land gelegt werden dürfen, die auf der Karte stehen."
        ],
    ),
    (
        "000",
        "typo",
        "jahreszhal durch upgrade verändert welche zählt dann",
        [
            "Wird die Jahreszahl einer Karte, z.B. einer Einheit, durch eine andere Karte verändert (z.B. durch ein darauf gespieltes Upgrade)"
        ],
    ),
    ("000", "typo", "welchen rnad haben basisausbaukarten", ["Basisausbaukarten (grauer Rand)"]),
    (
        "000",
        "typo",
        "öfeld zweite basis in der basisausbauphase",
        [
            "Das Ölfeld ermöglicht es, zusätzlich zum regulären Auslegen einer Basis während der Basisausbauphase"
        ],
    ),
    (
        "000",
        "typo",
        "landausbau verteidigung erhöhen mit signalpistle gehts?",
        [
            "Ebenso ist Verteidigungswert-Erhöhung oder die Verhinderung von Schaden auf Landausbauten"
        ],
    ),
    # ---- 000 deep_paragraph (9) ----
    (
        "000",
        "deep_paragraph",
        "A sagt seine 227er auf die Radarstation von B an, B kontert mit seiner eigenen 227er auf As Bombe. Kann As Bombe die Radarstation dann noch zerstören?",
        ["Meine wäre also bereits zerstört, wenn sie im Aktionsstapel"],
    ),
    (
        "000",
        "deep_paragraph",
        "Im Stapel liegen: Zerstörer sperrt Radarstation, Radarstation als Reaktion, zweiter Zerstörer kontert. Zieht die Radarstation am Ende noch ihre Karte?",
        ["Diese kann nicht mehr eine Karte ziehen - und da sie bereits nun gesperrt ist"],
    ),
    (
        "000",
        "deep_paragraph",
        "Beispielkampf: was wäre, wenn die Flak die Me110 und die Spitfire die Do217 blockt – wer geht da verloren?",
        ["dann würde die Flak verloren gehen (die Me110 kann auch Bodenziele angreifen)"],
    ),
    (
        "000",
        "deep_paragraph",
        "Warum soll die ungeblockte Me109 im Beispielkampf ausgerechnet die Spitfire beschießen?",
        [
            "Denn die Spitfire hat ihren Schaden auf die Do217 ausgeteilt und kann auf Deine Me109 nicht mehr Schaden austeilen"
        ],
    ),
    (
        "000",
        "deep_paragraph",
        "Bombercockpit deckt in der Basisausbauphase eine Einheit auf. Was passiert mit der Karte?",
        ["bis zum Rundenende oder halt bis dahin, wann man sie spielen kann und will"],
    ),
    (
        "000",
        "deep_paragraph",
        "Mit dem Ölfeld kommt nach dem Umdrehen noch eine Basis ins Spiel. Kann ein vorher ausgespieltes HQ die noch verteuern?",
        [
            "Wird hingegen mit dem Ölfeld ein weiterer Basisausbau ins Spiel gebracht, nachdem die regulären Basisausbauten schon umgedreht wurden"
        ],
    ),
    (
        "000",
        "deep_paragraph",
        "Meine Flak blockt schon einen Bomber, jetzt feuert noch ein freier Jäger auf sie. Welchen Wert darf sie gegen den Jäger noch einsetzen?",
        [
            "cc3) Wird durch eine nicht geblockte angreifende Einheit Schaden auf eine bereits blockende Einheit ausgeteilt"
        ],
    ),
    (
        "000",
        "deep_paragraph",
        "Mein gesperrter Hellcat wird vom Panzer IV angegriffen, ich habe eine AK zum Entsperren. Wann muss ich die spielen?",
        ["denn nur dann kann Dein Hellcat logischerweise seinen Schaden ebenfalls noch austeilen"],
    ),
    (
        "000",
        "deep_paragraph",
        "Drei Spieler, Angriff nur allgemein erklärt und beide Gegner blocken gemeinsam. Dürfen die zwei einander dann mit Fähigkeiten unterstützen?",
        [
            "sie gelten schließlich als zwei feindliche Parteien, die nur zufällig in einen Kampf gegen den Dritten verwickelt werden"
        ],
    ),
    # ---- 001 territory game (14) ----
    (
        "001",
        "paraphrase",
        "Der Angreifer hat am Ende der Kampfrunde keine Einheiten mehr im Gebiet. Werden dann irgendwelche Marker auf der Produktionspunkte-Skala verschoben?",
        ["Die Marker auf der Produktionspunkte-Skala werden nicht verschoben."],
    ),
    (
        "001",
        "paraphrase",
        "Wird automatisch in jedem Gebiet gekämpft, in dem Einheiten von zwei Spielern stehen?",
        ["In allen Gebieten, in denen Einheiten von verschiedenen Spielern stehen, wird gekämpft"],
    ),
    (
        "001",
        "colloquial",
        "gebiet ist nach dem kampf leer – kann das einfach jemand anders nehmen?",
        ["Das Gebiet steht nun frei und kann von einem der nächsten Spieler im Schritt"],
    ),
    (
        "001",
        "colloquial",
        "mein gebiet wird angegriffen, darf ich mehr einheiten reinsetzen als das gebiet PP hat?",
        [
            "Die Anzahl der eigenen Einheiten des Verteidigers eines Gebietes darf dabei nicht höher sein"
        ],
    ),
    (
        "001",
        "jargon",
        "retreat am anfang der kampfrunde – wer darf zuerst abhauen, angreifer oder verteidiger?",
        [
            "Zu Beginn jeder Kampfrunde können sich zunächst der Angreifer und dann der Verteidiger (in dieser Reihenfolge) für den Rückzug entscheiden."
        ],
    ),
    (
        "001",
        "jargon",
        "wer entscheidet welche einheit bei nem treffer gekillt wird",
        [
            "Für jeden Treffer muss der gegnerische Spieler eine Einheit eigener Wahl aus dem Gebiet entfernen."
        ],
    ),
    (
        "001",
        "keyword",
        "kampfreihenfolge gebiete festlegen",
        ["Der Angreifer bestimmt die Reihenfolge der Kämpfe."],
    ),
    (
        "001",
        "keyword",
        "seefeld erreichen ankersymbol strichlierte linie",
        ["sind nur über Gebiete mit einem Ankersymbol und weiß strichlierter Linie erreichbar"],
    ),
    (
        "001",
        "abbreviation",
        "UK-Spieler mit aktiven Skills kämpft aus einem Seefeld heraus – wie viele Würfel darf er nehmen?",
        ["einen weißen Würfel zusätzlich werfen und so mitunter vier Würfel benutzen"],
    ),
    (
        "001",
        "abbreviation",
        "3-PP-Feld, eine Figur von mir steht schon – wie viele kommen noch rein?",
        ["darf er also maximal 2 weitere Einheiten aus seinem Base Camp platzieren"],
    ),
    (
        "001",
        "typo",
        "beim bewegn spielt die maximale anzahl einheiten pro gebiet eine rolle?",
        ["Achtung: Die maximale Anzahl an Einheiten je Gebiet spielt beim Bewegen keine Rolle."],
    ),
    (
        "001",
        "typo",
        "unentschiden beide verlieren alles, wer verliert die produktionspunkte",
        ["Allerdings verliert der Verteidiger, da er keine Einheiten mehr in dem Gebiet hat"],
    ),
    (
        "001",
        "deep_paragraph",
        "Beispiel Indonesia und New Guinea: wie verteilt der Spieler seine 4 Einheiten aus dem Base Camp?",
        ["Da er nur 4 Einheiten in seinem Base Camp hat, entscheidet er sich 1 Panzer-Einheit in"],
    ),
    (
        "001",
        "deep_paragraph",
        "Im Mongolia-Beispiel greift er mit Flieger, Panzer und zwei Infanterie an. Mit welchen Würfeln würfelt er?",
        ["Der aktive Spieler würfelt daher mit 1 schwarzen Würfel für die Flieger-Einheit"],
    ),
    # ---- 002 The Sails of War (20) ----
    (
        "002",
        "paraphrase",
        "Was passiert mit den Truppen an Bord, wenn mein Transportschiff versenkt wird?",
        [
            "Ladung und Armeeeinheiten an Bord von Handels- bzw. Transportschiffen sind verloren, wenn das Schiff zerstört wird."
        ],
    ),
    (
        "002",
        "paraphrase",
        "In welchem Abschnitt der Runde werden Häfen gebaut?",
        [
            "Häfen werden während der Rekrutierung der Wirtschaftsphase gebaut, wie Städte und Großstädte."
        ],
    ),
    (
        "002",
        "paraphrase",
        "Kann ein Held, der gerade eine Aufgabe von einer Suchkarte erledigt, unterwegs Suchcounter umdrehen?",
        ["Kartensuche unternimmt, darf keine Suchcounter aufdecken"],
    ),
    (
        "002",
        "colloquial",
        "wenn ich n stern von nem suchcounter krieg, muss ich den erst heimbringen?",
        ["stehen durch Suchcounter erhaltene Artefakte dem Spieler sofort zur Verfügung"],
    ),
    (
        "002",
        "colloquial",
        "mein held ist grad auf suche und haut nen anderen helden mit stern um, krieg ich den stern einfach so?",
        [
            "muß er seine momentane Aufgabenkarte abwerfen, um den Stern bzw. das Artefakt des besiegten Helden"
        ],
    ),
    (
        "002",
        "colloquial",
        "zwei von meinen helden gegen einen – dürfen die nach dem ersten kampf nochmal ran?",
        [
            "Gewinnt der gegnerische Held den ersten Kampf, kann nun der zweite Held gegen ihn kämpfen"
        ],
    ),
    (
        "002",
        "jargon",
        "seeschlangen spawn beim setup – wie viele und wo?",
        ["Nach Vollendung des Spielfeldes werden vier zufällige Ozeanfelder ausgewürfelt"],
    ),
    ("002", "jargon", "upkeep kriegsschiff sow", ["Kriegsschiff 6 H oder E 1 H oder E"]),
    (
        "002",
        "jargon",
        "gibts was womit ich verdeckte suchcounter peeken kann",
        ["drei noch verdeckt liegende Suchcounter anzuschauen"],
    ),
    ("002", "keyword", "counterbogen anzahl counter", ["1 Counterbogen mit 156 Countern"]),
    (
        "002",
        "keyword",
        "seeschlangen tiefseefelder",
        ["Seeschlangen können auf Tiefseefelder ziehen."],
    ),
    (
        "002",
        "keyword",
        "seehoheit zeitpunkt nach seeschlachten",
        [
            "Nach dem Ende aller normalen Kämpfe und aller Seeschlachten können die Kriegsschiffe des aktiven Spielers"
        ],
    ),
    (
        "002",
        "abbreviation",
        "SoW Aufbau: wie viele Rohstoffmarker setzt jeder am Anfang?",
        [
            "Zu Spielbeginn setzt jeder Spieler drei Rohstoffmarker (für die drei Rohstoffe Eisen, Getreide und Holz)"
        ],
    ),
    (
        "002",
        "abbreviation",
        "Großstadt kostet 5H & 5E – kann ich die auch direkt auf ein leeres Gebiet bauen?",
        ["Eine Großstadt kann nur als Ersatz für eine Stadt gebaut werden"],
    ),
    (
        "002",
        "abbreviation",
        "wie viele suchcounter sind in SoW drin",
        ["SoW enthält 44 dunkelviolet umrandete Suchcounter."],
    ),
    (
        "002",
        "typo",
        "plazierung ausgewürfelt aber da leigt schon ein gebiet",
        ["und zwar so lange, bis er das Gebiet auf ein leeres Hexfeld setzen kann"],
    ),
    (
        "002",
        "typo",
        "heimatgebiet schon gelgt, darf ich trotzdem nochmal möglichkeit 3 nehmen",
        [
            "Wer sein Heimatgebiet bereits gelegt hat, kann diese dritte Möglichkeit nicht mehr wählen."
        ],
    ),
    (
        "002",
        "typo",
        "magisches tor benutzn was muss ich dafür zahlen",
        [
            "Man muß vor der eigenen Bewegungsphase einen Stern opfern, um die Tore für seinen Zug zu öffnen."
        ],
    ),
    (
        "002",
        "deep_paragraph",
        "Im Handelsbeispiel ist der Handelswert 3. Was legt der Daqan-Spieler dann auf sein Handelsschiff?",
        ["Der Daqan Spieler nimmt 4 Eisencounter und 2 Holzcounter (den doppelten Handelswert)"],
    ),
    (
        "002",
        "deep_paragraph",
        "Im Seehoheit-Beispiel: warum lässt der Orkspieler die Handelsschiffe der Elfen in Ruhe?",
        [
            "Der Orkspieler möchte gerne ein Bündnis mit den Elfen schließen und beschließt, die Elfenschiffe in Frieden zu lassen."
        ],
    ),
    # ---- 003 miniatures round rules (10) ----
    (
        "003",
        "paraphrase",
        "Wann ist eine Partie mit den Moduswürfel-Regeln eigentlich zu Ende?",
        ["bis nur noch eine Armee übrig ist oder ein anderes zuvor festgelegtes Ziel erreicht ist"],
    ),
    (
        "003",
        "paraphrase",
        "Wieso wird nach dem ersten Befehl einer Runde nicht vor jedem weiteren Befehl neu gewürfelt?",
        [
            "um in der Anfangsphase der Runde zu vermeiden, dass einzelne Spieler durch Glück zu häufig hintereinander Befehle erteilen"
        ],
    ),
    (
        "003",
        "colloquial",
        "mein gegner hat nur 2 trupps, ich 5 – geb ich am schluss alle befehle am stück?",
        [
            "Bei unterschiedlicher Anzahl von Gruppen ist es nicht vermeidbar, dass am Ende der Runde Spieler mehrere Befehle hintereinander geben dürfen."
        ],
    ),
    (
        "003",
        "colloquial",
        "kurven fahren mit ner gruppe erlaubt?",
        ["Bewegt werden darf nur in geraden Linien."],
    ),
    (
        "003",
        "jargon",
        "initiative-wurf am rundenanfang, wer darf den ersten befehl geben",
        [
            "Der Spieler mit dem höchsten Wert (ggf. muss ein Stechen gewürfelt werden) darf den ersten Befehl geben."
        ],
    ),
    (
        "003",
        "keyword",
        "patt wertung summe aller einheiten",
        ["Hierfür werden pro Team bzw. Spieler die Armeewerte aller Einheiten zusammengerechnet."],
    ),
    (
        "003",
        "abbreviation",
        "SPD-Wert 10 – wie viele cm darf ich die Gruppe schieben?",
        [
            "Eine Gruppe mit einem SPD-Wert von 10 im aktuellen Modus kann also bis zu 10 cm versetzt werden."
        ],
    ),
    (
        "003",
        "abbreviation",
        "Flucht-Modus mit hohem SPD – taugt die Gruppe dann noch im Gefecht?",
        [
            "Eine sich im Fluchtmodus befindliche Gruppe ist zum Beispiel schneller in der Bewegung, jedoch im ineffektiver Kampf."
        ],
    ),
    (
        "003",
        "typo",
        "moduswürfel wieder an die grupe ranlegen wozu",
        [
            "um zu verdeutlichen, dass diese Gruppe in dieser Runde keinen Befehl mehr ausführen darf"
        ],
    ),
    (
        "003",
        "deep_paragraph",
        "Darf meine Infanteriegruppe durch eine befreundete Panzergruppe hindurchziehen, wenn nichts vereinbart ist?",
        [
            "außer befreundeter Gruppen gleicher Art, z. B. Infantrie von Infantrie oder generell Gruppen"
        ],
    ),
    # ---- 004 round overview (14) ----
    (
        "004",
        "paraphrase",
        "Darf ein Trupp, der in der Bewegungsphase vorgerückt ist, danach noch schießen?",
        ["Einheiten, die vorgerückt sind oder sich zurückgezogen haben, können nicht schießen."],
    ),
    (
        "004",
        "paraphrase",
        "Muss ich die Ziele für alle Waffen festlegen, bevor die Einheit zu schießen anfängt?",
        ["müssen bestimmten werden, bevor die Einheit mit dem Schießen beginnt"],
    ),
    (
        "004",
        "colloquial",
        "gegner steht im nahkampf mit meinem trupp, darf mein anderer trupp da noch reinballern?",
        ["Einheiten in Nahkampfreichweite befreundeter Einheiten können nicht beschossen werden."],
    ),
    (
        "004",
        "colloquial",
        "kann mein trupp im transporter von außen beschossen werden",
        [
            "Einheiten an Bord eines TRANSPORTERS können nichts tun und durch nicht beeinflusst werden."
        ],
    ),
    (
        "004",
        "jargon",
        "big guns never tire – panzer im nahkampf schießen, gibts nen malus?",
        [
            "MONSTER und FAHRZEUGE können schießen und beschossen werden, auch wenn sie sich in Nahkampfreichweite befinden.",
            "Ziehe jeweils 1 vom Trefferwurf ab.",
        ],
    ),
    (
        "004",
        "jargon",
        "feel no pain 5+ wie wird das gewürfelt",
        ["Wirf einen W6, wenn das Modell einen LP verliert. Bei X+ verliert es den LP nicht."],
    ),
    (
        "004",
        "keyword",
        "erstschlag wer kämpft zuerst",
        ["einschließlich derer, die eine Angriffsbewegung durchgeführt haben"],
    ),
    (
        "004",
        "keyword",
        "deckung bonus rüstungswurf beschuss",
        ["+1 auf den RW gegen Beschuss, wenn ein Modell in Deckung ist."],
    ),
    (
        "004",
        "abbreviation",
        "Verwundungswurf: S gegen W vergleichen, wie genau?",
        ["vergleiche die Stärke der Attacke mit dem Widerstand des Modells"],
    ),
    (
        "004",
        "abbreviation",
        "wird der Rettungswurf auch durch den DS verschlechtert?",
        ["Rettungswürfe werden nicht durch den DS modifiziert."],
    ),
    (
        "004",
        "typo",
        "strategisce reserve in runde 1 schon aufstellen?",
        ["Einheiten der strategischen Reserve können nicht in der ersten Runde eintreffen."],
    ),
    (
        "004",
        "typo",
        "flugzeug fliegt übern spielfeldrand was pasiert dann",
        ["Führt die Bewegung über den Spielfeldrand, wird das FLUGZEUG in die Reserve versetzt."],
    ),
    (
        "004",
        "deep_paragraph",
        "Meine Einheit hat 8 Modelle – zu wie vielen anderen Modellen muss jedes in Formation stehen?",
        ["bzw. 2 Modellen (bei Einheiten aus 7+ Modellen) derselben Einheit"],
    ),
    (
        "004",
        "deep_paragraph",
        "Beim Neu ordnen kommt ein Modell nicht mehr näher an den Feind. Wohin bewegt es sich dann?",
        ["Ist das nicht möglich, bewegt sich jedes Modell auf den nächsten Missionszielmarker zu."],
    ),
]

UNANSWERABLE = [
    # hard: the corpus's own words, asking for a value, case or exception it never states
    "Sizilien: ab wie vielen Fahnen im Land ist es gewonnen?",
    "Wie viele Siegfahnen trägt die Me109 E-4?",
    "Wie viel Verteidigung hat der Landausbau Eingegrabener Panzer?",
    "Wie viele Siegpunkte bringt Alam Halfa?",
    "Wie viele Einheiten liegen zu Spielbeginn in jedem Base Camp?",
    "welchen special skill hat die sowjetunion",
    "Was bringt die Forschung Wirtschaft Stufe 1 beim Beordern und Kämpfen?",
    "Wie viele Rohstoffe bekomme ich in SoW, wenn ich eine Stadt plündere?",
    "wie viele gebiete weit darf ein fußsoldat in sow pro runde ziehen",
    "Graue Gilde: was kostet der sechste Stern, wenn ich schon fünf habe?",
    "Wie berechne ich den Armeewert einer einzelnen Gruppe für die Endabrechnung beim Patt?",
    "Welche Reichweite hat ein Angriff im Moduswürfel-Regelwerk, in cm?",
    "Welchen MW hat ein Trupp Space Marines?",
    "Nach wie vielen Runden endet eine Partie der 10. Edition?",
    "Was passiert, wenn beide Spieler in derselben Siegphase 15 Siegpunkte erreichen?",
    "Was macht der Wettereffekt der Länderkarte Stalingrad in Runde 3?",
    "Liefert das Ölfeld selbst auch Technologiewerte, und wie viele?",
    "Wie viele TW kostet das Upgrade Fahrrad?",
    "Welche AG-Werte hat die Me110E genau?",
    "Wie viel Unterhalt muss ich für einen Drachen in SoW zahlen?",
    # off-corpus: prices, editions, tournaments, sleeves, other games, strategy, untreated cards
    "Wo krieg ich heute noch Booster für HoW her und was kosten die?",
    "Welche Sleeves nehmt ihr für eure HoW-Decks?",
    "Kommt eine neue Auflage von BATTLEMIST raus?",
    "wann ist das nächste HoW turnier in münchen",
    "Welche Nation ist für Anfänger in HoW am stärksten?",
    "bestes deck gegen ein flieger-lastiges achsen-deck?",
    "Wie funktioniert die Rochade beim Schach?",
    "Uno: Ziehkarten stapeln erlaubt?",
    "Wie viele Karten bekommt jeder beim Doppelkopf?",
    "Was ist die Abseitsregel beim Fußball?",
    "Wie viele Energiekarten darf man beim Pokémon-Sammelkartenspiel pro Zug anlegen?",
    "Age of Sigmar: wie funktioniert der Doppelzug mit dem Prioritätswurf?",
    "Ab welchem Alter ist BATTLEMIST geeignet?",
    "kann man HoW irgendwo online gegen andere spielen",
    "Wie funktioniert die Aktionskarte Gegenoffensive?",
    "Welche Fähigkeit hat das Schlachtschiff Bismarck?",
    "Was bewirkt die Fähigkeit Sturzflug! bei Stukas?",
    "Welche Werte hat der Tiger I in HoW?",
    "Darf man im Highlander-Format Proxykarten benutzen?",
    "Wie geht die Mulligan-Regel bei Magic?",
]

# (doc, history question, follow-up q, [gold, ...])
FOLLOWUPS = [
    (
        "000",
        "wie wird so ein aktionsstapel mit aktion und reaktion abgearbeitet",
        "und wie merk ich mir, welche karte ich dafür schon benutze?",
        ["Beim Ansagen einer Fähigkeit sollte man die deklarierte Karte als Erinnerung sperren!"],
    ),
    (
        "000",
        "was macht die fähigkeit initiative!",
        "heißt das, mein flieger kann dann auch panzer abfangen?",
        [
            "Initiative! bedeutet nicht, dass von der Einheit mit Initiative! die artfremde Einheit geblockt werden kann."
        ],
    ),
    (
        "000",
        "was bringt mir die kaserne beim bauen",
        "und die werft, funktioniert die genauso?",
        ["Die beiden Werften werden nur nicht gesperrt."],
    ),
    (
        "000",
        "wie läuft die bauphase ab",
        "und was wenn ich mich beim bezahlen verrechnet hab?",
        [
            "weil der bauende Spieler sich unter Einbeziehung der gesamten offen (!) liegenden Karten im Spiel verrechnet hat"
        ],
    ),
    (
        "000",
        "nur ein exemplar pro karte, wie heißt das format",
        "und im profi-format?",
        ["Im Profi-Format dürfen alle Karten viermal vorkommen"],
    ),
    (
        "000",
        "wie funktioniert vorteil! im kampf",
        "und wenn da nur nachtjäger steht, zählt ein normaler jäger mit?",
        ["wirkt somit auch nur gegen Nachtjäger, nicht aber gegen Jäger allgemein"],
    ),
    (
        "000",
        "wann ist eine einheit zerstört",
        "und wo kommt die dann hin?",
        ["Zerstörte Einheiten werden auf dem eigenen Schrottplatz abgelegt."],
    ),
    (
        "000",
        "welche karten sind landeinheiten",
        "und woran erkenn ich schiffe?",
        ["Einheitenkarten mit blauem Abbildungsrand sind Seeeinheiten (Schiffe)."],
    ),
    (
        "000",
        "wie läuft ein multiplayer-spiel mit gerader spielerzahl",
        "wer kriegt den siegeffekt, wenn unser team ein land erobert?",
        ["Der Siegeffekt des Landes fällt aber nur einem Spieler zu."],
    ),
    (
        "000",
        "was bewirkt tarnung! genau",
        "schützt die auch gegen den effekt der heinkel he115?",
        ["der Heinkel He115-Effekt hingegen gilt nicht als Schaden"],
    ),
    (
        "001",
        "base camp einheiten platzieren, gibts da eine obergrenze pro gebiet",
        "und wenn ich die usa spiele?",
        [
            "darf der Spieler der die USA spielt, die maximale Anzahl an Einheiten je Gebiet um eine Einheit überschreiten"
        ],
    ),
    (
        "001",
        "wie läuft ein rückzug aus einem kampfgebiet ab",
        "ich spiel frankreich mit special skills, verlier ich da auch was?",
        ["verliert der Spieler der Frankreich spielt, bei einem Rückzug keine Einheiten"],
    ),
    (
        "001",
        "welchen würfel nimmt eine infanterie-einheit",
        "und ein panzer?",
        ["Für jede Panzer-Einheit darf der Spieler einen grauen Würfel werfen."],
    ),
    (
        "002",
        "kriegsschiffe von zwei rassen im selben feld, wie wird das ausgewürfelt",
        "kann ich mich da irgendwann zurückziehen?",
        ["Eine Rückzugsmöglichkeit gibt es nicht."],
    ),
    (
        "002",
        "was kostet ein transportschiff",
        "und wie viele armeeeinheiten passen da drauf?",
        ["Mehr als drei Armeeeinheiten kann ein Transportschiff niemals gleichzeitig befördern."],
    ),
    (
        "002",
        "was bringt der turm von timorran",
        "und wenn der herr der finsternis den kontrolliert?",
        [
            "Der Herr der Finsternis erhält keinen zusätzlichen Stern für die Kontrolle dieses Gebietes."
        ],
    ),
    (
        "002",
        "was passiert beim ereignis waldbrände",
        "und was bringt ein gutes jahr?",
        ["Alle Gebiete produzieren zwei zusätzliche Rohstoffe"],
    ),
    (
        "002",
        "was können drachen in sow zusätzlich",
        "wie viele drachen darf es höchstens geben?",
        ["Die Anzahl verfügbarer Drachencounter ist auf 8 Stück begrenzt"],
    ),
    (
        "002",
        "wie verdient man mit handelsschiffen rohstoffe",
        "und wenn das schiff unterwegs versenkt wird?",
        ["Wird ein Handelsschiff zerstört, ist die gesamte Ladung verloren."],
    ),
    (
        "003",
        "ab wann gilt das spiel als festgefahren",
        "und wenn beide den gleichen armeewert haben?",
        ["Bei gleichen Armeewerten endet das Spiel mit einem Unentschieden."],
    ),
    (
        "003",
        "wie setze ich den modus einer gruppe fest",
        "wie viele verschiedene gibts da maximal",
        [
            "Mögliche Modi (maximal 6 verschiedene) sind auf der entsprechenden Einheitenkarte angegeben."
        ],
    ),
    (
        "004",
        "wie weit darf ich beim vorrücken ziehen",
        "und beim zurückziehen?",
        ["Aus Nahkampfreichweite heraus bis zu B"],
    ),
    (
        "004",
        "was ist ein fluchttest",
        "wann genau muss die einheit den machen?",
        [
            "Beim Rückzug über feindliche Modelle (außer die Einheit ist TITANISCH oder FLIEGEND) oder bei Erschütterung"
        ],
    ),
    (
        "004",
        "wie funktionieren tödliche verwundungen",
        "und gefährliches ende?",
        ["Wirf einen W6, wenn das Modell zerstört wird."],
    ),
]


def main() -> None:
    rng = random.Random(SEED)
    items = list(QUESTIONS) + [(None, "unanswerable", q, []) for q in UNANSWERABLE]
    fus = list(FOLLOWUPS)
    rng.shuffle(items)
    rng.shuffle(fus)
    write_set("dev4", "d4-", "d4f", items, fus)


if __name__ == "__main__":
    main()
