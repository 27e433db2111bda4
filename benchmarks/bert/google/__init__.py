"""Google's class-style BERT tokenizer (``tokenization.py`` from google-research/bert, Apache-2.0), as the
ecosystem writes it: ``BasicTokenizer``/``WordpieceTokenizer`` classes whose methods call module helpers. The
BERT benchmark's ``classes-*`` engines run it plain and with ``moshjit.jit`` on its classes and functions
(``class_style.py``)."""
