"""Search indices (Whoosh page and section indices, semantic vectors): issue 3."""
