"""faq_bot: rules lookup and FAQ chatbot for tabletop and card games."""

import os

# Numeric libraries read these when they load: one thread each. The embedder's
# OpenMP threads and OpenBLAS fight over few cores otherwise (a query embedding
# took ~230 ms instead of ~27 ms on 2 cores; see `faq_bot.embed`).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
