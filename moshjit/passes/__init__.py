"""IR → IR passes, one per module; ``pipeline.run_passes`` runs them in the one fixed order."""
