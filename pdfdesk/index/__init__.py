"""Search indices: Whoosh page and section indices, semantic vectors, the embedding model, and the
one indexing queue and its owner that build them."""
