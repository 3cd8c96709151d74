"""Model inference on onnxruntime: the sentence embedder, the optional cross-encoder,
and the manifest that pins every model file by hash (``models``)."""
