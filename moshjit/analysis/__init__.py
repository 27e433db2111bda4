"""Graph analyses shared by the frontend, the passes and the backends (generic over node type)."""
