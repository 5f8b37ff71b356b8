"""Write eval/heldout31-questions.jsonl and eval/heldout31-followups.jsonl.

Held-out set 31, written blind from the five seed documents only (see eval/README.md).
Golds were not steered away from text earlier golds cover: each gold is the passage a
player or judge asking the question would need. Shuffled with a fixed seed.
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import write_set  # noqa: E402

SEED = 20261231
P, C, J, K, A, T, D, U = ("paraphrase", "colloquial", "jargon", "keyword", "abbreviation",
                          "typo", "deep_paragraph", "unanswerable")

QUESTIONS = [
    # ---- 000 paraphrase (9)
    ("000", P, "Welche Karten gehören eigentlich alle zur Basis eines Spielers?",
     ["Als Basis gelten die Basiszone, die Handkarten, das Depot und der Schrottplatz eines Spielers."]),
    ("000", P, "Verhindert ein Blitzangriff, dass mein Gegner aus dem zerstörten Ausbau noch TW zieht?",
     ["Der Blitzangriff vermag NICHT das Ziehen von TW verhindern."]),
    ("000", P, "Wie lange hält die Wirkung des Bombercockpits an, eine Phase oder länger?",
     ["Die Fähigkeit des Bombercockpits gilt nicht nur eine Phase, sondern abweichend von den Regeln die ganze Runde über"]),
    ("000", P, "Kann man eine Deklaration nachträglich noch abändern, wenn man sich verzählt hat?",
     ["Deklarationen gleich welcher Art müssen gleichzeitig erfolgen"]),
    ("000", P, "Zählen Länderkarten beim Zusammenstellen zum Depot dazu?",
     ["Länderkarten sind kein Depotbestandteil."]),
    ("000", P, "Welche Kosten zahle ich beim Ausspielen einer Erfolgreichen Abwehr?",
     ["Man bezahlt nur die Kosten, welche zum Ausspielen der gegnerischen Aktionskarte notwendig sind."]),
    ("000", P, "Darf ich mit der Feuerwehr die Zerstörung eines anderen Basisausbaus auf die Feuerwehr selbst umleiten?",
     ["Die Feuerwehr ermöglicht es nicht, die Zerstörung eines anderes Basisausbaus auf sich selbst umzulenken."]),
    ("000", P, "Gilt der Bonus von Kreta auf Infanterie auch in anderen Ländern?",
     ["Die Fähigkeit von Kreta, den AG-Boden von Infanterie zu erhöhen, gilt selbstverständlich nur in diesem einen Kreta selbst"]),
    ("000", P, "Ist das bloße Ausspielen einer Karte schon eine Aktion, auf die reagiert werden kann?",
     ["Das Spielen einer Karte zählt als Aktion."]),
    # ---- 000 colloquial (8)
    ("000", C, "wie viele von meinen Jungs dürfen eigentlich einen einzigen Angreifer gleichzeitig blocken?",
     ["Solange der Block legal bleibt können beliebig viele Einheiten einen einzelnen Angreifer blocken."]),
    ("000", C, "kann ich mit dem Ölfeld noch nen zweiten Basisausbau in derselben Phase raushauen?",
     ["Das Ölfeld ermöglicht es, zusätzlich zum regulären Auslegen einer Basis während der Basisausbauphase einen weiteren Basisausbau"]),
    ("000", C, "mein Panther steht da, darf der echt zwei Panzer auf einmal blocken??",
     ["Der Panther hat als Sonderregel, dass er zwei Landeinheiten blocken darf."]),
    ("000", C, "woran erkenn ich auf so ner Länderkarte bitte die Siegpunkte?",
     ["Siegpunkte sind auf Länderkarten als weiße Zahlen in rotem Quadrat abgebildet."]),
    ("000", C, "wie viel Platz brauch ich am Tisch, also wie viele Kartenreihen legen wir aus?",
     ["zwischen zwei Spielern fünf Kartenreihen großzügig auslegen zu können"]),
    ("000", C, "hab nen Upgrade auf der Hand, wann und wo darf ich das überhaupt draufpacken?",
     ["Diese können in der Bauphase auf Einheiten in der Aufmarschzone gespielt werden."]),
    ("000", C, "kann mein Versorgungstunnel echt andere Landausbauten stärker machen oder hab ich das falsch verstanden",
     ["Der Versorgungstunnel kann als Ausnahme von der Regel die Verteidigung anderer Landausbauten erhöhen."]),
    ("000", C, "Gegner sagt ich muss Wartung ganz am Anfang vom Bauen erledigen, stimmt das?",
     ["Wartung von Karten muss unmittelbar nach Beginn der Bauphase noch vor dem eigentlichen Phasenzweck des Bauens von neuen Karten abgewickelt"]),
    # ---- 000 jargon (8)
    ("000", J, "Wer hat den Zerstörer mit dem Tap-Effekt auf gegnerische Basisausbauten, und was kann der genau?",
     ["Diese Schiffseinheiten besitzen manchmal die Fähigkeit, einen gegnerischen Basisausbau zu sperren."]),
    ("000", J, "Autoblinda 41 Fähigkeit, ist das once per game oder mehrmals nutzbar?",
     ["Diese Fähigkeit kann nur einmalig genutzt werden"]),
    ("000", J, "Land-Phase für Basen: darf ich die Ressourcenkarte getappt oder untapped ausspielen?",
     ["In der Basisausbauphase kann jeder Spieler eine Basisausbaukarte aus den eigenen Handkarten verdeckt und ungesperrt in seine Basiszone"]),
    ("000", J, "Welche Rahmenfarbe haben die Creature-Karten für Luft, See und Boden?",
     ["Einheitenkarten (Einheiten) werden unterschieden in die Arten Seeeinheiten (blauer Rand), Lufteinheiten (brauner Rand)"]),
    ("000", J, "Bekommt ein Unit mit Eingraben! den Defense-Buff jede Runde im Upkeep?",
     ["erhöht sich zwischen den Spielrunden der Verteidigungswert durch"]),
    ("000", J, "Draw-Step: wie viele Karten zieht man da vom Deck?",
     ["In der Kartenziehphase ziehen die Spieler die oberste Karte vom eigenen Depot als Handkarte."]),
    ("000", J, "Löscharbeiten Errata: wann darf ich damit tappen und ne Karte drawen?",
     ["Ziehe eine Karte wenn ein Gegner bei Dir einen Basisschaden verursacht hat."]),
    ("000", J, "Transportflugplatz triggert wenn der Gegner außerhalb vom Draw-Step zieht, richtig?",
     ["Du kannst eine Karte ziehen, wenn ein anderer Spieler außerhalb seiner Kartenziehphase"]),
    # ---- 000 keyword (8)
    ("000", K, "Obertyp Einheitentyp Definition",
     ["Unter Obertyp oder Einheitentyp versteht man die Einteilung von Einheiten"]),
    ("000", K, "Aufmarschzone Lage Basiszone Länderzone",
     ["Die Aufmarschzone befindet sich zwischen der jeweils eigenen Basiszone und der gemeinsamen Länderzone."]),
    ("000", K, "Basisschaden! statt Angriff im Land Angriffsdeklarationsphase",
     ["anstelle eines Angriffes im Land"]),
    ("000", K, "Highlander Deck Maximum Karten",
     ["In einem Highlander-Deck dürfen alle Karten nur exakt einmal vorkommen. Das Deck darf maximal 60 Karten beinhalten."]),
    ("000", K, "Historisch! Anzahl im Depot",
     ["Karten mit der Aufschrift Historisch! dürfen nur einmal im Depot vorhanden sein."]),
    ("000", K, "Jagdbomber Jäger oder Bomber",
     ["Jagdbomber zählen sowohl als Jäger wie auch als Bomber."]),
    ("000", K, "Siegfahnen wo abgebildet Einheiten Landausbauten",
     ["Siegfahnen können im Abbildungsfeld von Einheiten und Landausbauten vorhanden sein."]),
    ("000", K, "Wetter! Auslösung welche Runden",
     ["lösen den Wettereffekt jede dritte Runde fortfolgend aus (Runden 3, 6, 9, 12 usw.)"]),
    # ---- 000 abbreviation (8)
    ("000", A, "Kaserne: wie viele Einheiten pro Phase werden um 1 TW billiger?",
     ["Die Kaserne kann nur eine Einheit je Phase vergünstigen."]),
    ("000", A, "Flakbatterie für 1 TW, welche AG und VG hat die dann?",
     ["Dieser Basisausbau wird bis zum Ende der Runde zu einer Flak mit 5 AG-Luft und 1 Verteidigung."]),
    ("000", A, "Was heißt TW bei HoW überhaupt?",
     ["Die für das Spiel notwendigen Ressourcen werden bei HoW als Technologiewerte (kurz: TW) bezeichnet"]),
    ("000", A, "Sizilien Sieger: wie viel TW sparen die Schiffe?",
     ["Die Seeeinheiten des Siegers kosten –1TW."]),
    ("000", A, "Fortgeschr.-Format max. wie oft pro Karte?",
     ["In diesem Format dürfen alle Karten maximal zweimal vorkommen"]),
    ("000", A, "Profi-Fmt: Kopien je Karte erlaubt?",
     ["Im Profi-Format dürfen alle Karten viermal vorkommen"]),
    ("000", A, "Takao-Kl.: blockt die 2 Schiffe gleichzeitig?",
     ["Die Takao-Klasse hat als Sonderregel, dass sie zwei Schiffe blocken darf."]),
    ("000", A, "Rückzugsph.: wohin gehen die Einheiten aus den Ländern zurück?",
     ["können ungesperrte Einheiten aus den Ländern gesperrt in die eigene"]),
    # ---- 000 typo (8)
    ("000", T, "kan man nur handkarten abwerfn oder auch andre?",
     ["Abwerfen kann man nur Handkarten."]),
    ("000", T, "auslösende bedingung mehrmals nutzbahr?",
     ["Jede auslösende Bedingung kann mehrfach eingesetzt werden."]),
    ("000", T, "was is die basiszohne genau",
     ["Die Basiszone bildet die Sammlung der in den Basisausbauphasen ins Spiel gebrachten Basisausbauten."]),
    ("000", T, "bombenproduktoin kommt die gesprerrt rein?",
     ["Diese Basis kommt grundsätzlich immer gesperrt ins Spiel."]),
    ("000", T, "flakscheinwerfer wirkt der auch gegn flieger mit tarnnung",
     ["Dieser Landausbau hat auch Effekt auf Flugzeuge mit"]),
    ("000", T, "siegfähigkeit von nem land, darf man da drauf reagiern?",
     ["Der Sieg eines Landes kann Aktionen auslösen (wenn dies die Siegfähigkeit des Landes vorsieht), auf die auch reagiert werden darf."]),
    ("000", T, "wan beginnt oder endet eine fase eigentlich",
     ["Eine Phase beginnt bzw. endet, wenn die Spieler dies übereinstimmend erklären."]),
    ("000", T, "gibts offizielle regln für ungrade spielerzahl?",
     ["Hierzu gibt es bislang KEINE offiziellen Regeln."]),
    # ---- 000 deep_paragraph (9)
    ("000", D, "Bei zwei 227er-Bomben im Stapel: wer zahlt am Ende eigentlich die TW?",
     ["Man sieht also, dass immer nur derjenige TW bezahlen muss, dessen Aktion auch wirklich durchgeführt werden kann."]),
    ("000", D, "Mehrere meiner Einheiten blocken denselben Angreifer – wohin geht deren Schaden?",
     ["Die blockenden Einheiten teilen Ihren (passenden) Angriffswert auf die mehrfach geblockte Einheit aus."]),
    ("000", D, "Ein ungeblockter Angreifer trifft meine noch ungesperrte Einheit. Darf die zurückschlagen?",
     ["Wird durch eine nicht geblockte angreifende Einheit Schaden auf eine ungesperrte Einheit ausgeteilt, kann diese einen (passenden) Angriffswert zurückgeben."]),
    ("000", D, "Wen darf ein Angreifer treffen, der von niemandem geblockt wurde?",
     ["kann diese einen passenden Angriffswert auf eine beliebige gegnerische Einheit im selben Land austeilen"]),
    ("000", D, "Wenn mein Blocker durch Vorteil! vorzeitig stirbt, teilt er dann noch Schaden aus?",
     ["Ist die angreifende oder blockende Einheit (allein) hierdurch zerstört, gibt sie keinen Schaden zurück."]),
    ("000", D, "Muss ich mir Schaden an Einheiten über die Phase hinaus mit Markern merken?",
     ["Es gibt also keine Schadensmarker oder Ähnliches in HoW."]),
    ("000", D, "Team-Spiel mit gerader Spielerzahl: um wie viele Länder und Siegpunkte geht es insgesamt?",
     ["Es wird um 6 Länder gespielt mit mindestens 22 Siegpunkten gesamt."]),
    ("000", D, "Was sind die positiv formulierten Länder seit den Französischen Alpen?",
     ["auch sogenannte"]),
    ("000", D, "Kann ich mit der Shinshu Maru in einer Runde mehrmals 2 TW ausgeben?",
     ["man kann jede Runde nur einmalig 2 TW ausgeben."]),
]

FOLLOWUPS = [
    ("000", "Wie viele Einheiten pro Phase macht die Kaserne billiger?",
     "darf ich sie dafür in derselben Bauphase sperren?",
     ["Sie darf nicht in der gleichen Bauphase gesperrt werden"]),
    ("000", "Wie oft darf ein Prototyp! gleichzeitig im Spiel liegen?",
     "und wie viele davon im deck?",
     ["Sie dürfen aber bis zu 4x im Deck befindlich sein."]),
    ("000", "Der Panther darf doch zwei Landeinheiten blocken, oder?",
     "und seinen Schaden dann aufteilen?",
     ["Somit darf er seinen Schaden auch unter beiden geblockten"]),
    ("000", "Kommt die Bombenproduktion immer gesperrt ins Spiel?",
     "auch zusammen mit Kriegswirtschaft?",
     ["Dies gilt auch in Kombination mit dem Basisausbau"]),
    ("000", "Darf ich Handkarten abwerfen, um einen Effekt auszulösen?",
     "und die obersten Karten vom Depot?",
     ["Karten vom Depot können nicht abgeworfen werden"]),
    ("000", "Um wie viele Länder spielt man bei vier Spielern im Team?",
     "wie viele Siegpunkte müssen die drei Länder einer Partei mindestens haben?",
     ["Jede Partei muss 3 Länder legen die in ihrer Summe mindestens 11"]),
    ("000", "Wann kommt der Wettereffekt eines Landes?",
     "gilt das fortlaufend bis Spielende?",
     ["Länder, die über die Fähigkeit Wetter! verfügen"]),
]

if __name__ == "__main__":
    rng = random.Random(SEED)
    qs = list(QUESTIONS)
    fs = list(FOLLOWUPS)
    rng.shuffle(qs)
    rng.shuffle(fs)
    write_set("heldout31", "h31-", "h31f", qs, fs)
