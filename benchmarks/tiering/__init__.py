"""Cold start and tiering (issue 15): whole programs with ``@jit`` on every def, compile latency, BERT warm-up."""
