"""Real PyTorch models, built from small configs with random weights
(nothing is downloaded), for the coverage table and the frontend's tests:
Hugging Face transformers (GPT-2 with SDPA and eager attention, BERT,
Llama, T5's encoder, ViT, Qwen2, Mistral, GPT-NeoX; RoBERTa, DeBERTa-v2,
ELECTRA, ALBERT, DistilBERT, MobileBERT, OPT, Phi, Gemma, BART, Swin, and
the audio models Whisper's encoder and wav2vec2) and torchvision
(ResNet-18, MobileNetV2; DenseNet, EfficientNet-B0, RegNetY, ShuffleNetV2,
MnasNet, MobileNetV3, SqueezeNet, ConvNeXt), in training mode with every
dropout and stochastic-depth probability 0.

    model, inputs, targets, loss_fn = ZOO["gpt2-sdpa"]()

Each entry returns the model, its inputs and targets (tuples of tensors)
and the loss `loss_fn(model(*inputs), *targets)`. Sizes are chosen so that
activations, not weights, dominate the step's peak (otherwise no budget at
half the peak exists).
"""

import functools


def _no_dropout(config):
    """Sets every dropout, stochastic-depth (drop path) and layer-drop
    probability of a transformers config to 0."""
    for name, value in list(vars(config).items()):
        if isinstance(value, float) and any(word in name for word in
                                            ("dropout", "pdrop", "drop_path", "layerdrop")):
            setattr(config, name, 0.0)
    return config


def _language_model_loss(output, labels):
    import torch.nn.functional as F
    logits = output.logits
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))


def _encoder_loss(output, target):
    return ((output.last_hidden_state - target) ** 2).mean()


def _classification_loss(output, labels):
    import torch.nn.functional as F
    logits = output.logits if hasattr(output, "logits") else output
    return F.cross_entropy(logits, labels)


def _tokens(vocab, batch, seq, seed):
    import torch
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(0, vocab, (batch, seq), generator=generator)


def _language_model(config_class, model_class, batch=8, seq=64, vocab=64, attention=None,
                    seed=0, **config):
    import torch
    import transformers
    torch.manual_seed(seed)
    cfg = _no_dropout(getattr(transformers, config_class)(vocab_size=vocab, **config))
    if attention:
        cfg._attn_implementation = attention
    model = getattr(transformers, model_class)(cfg).train()
    tokens = _tokens(vocab, batch, seq, seed + 1)
    labels = _tokens(vocab, batch, seq, seed + 2)
    return model, (tokens,), (labels,), _language_model_loss


def gpt2(attention="sdpa", seq=64, n_layer=2, n_embd=32, n_head=2, **sizes):
    return _language_model("GPT2Config", "GPT2LMHeadModel", attention=attention, seq=seq,
                           n_layer=n_layer, n_embd=n_embd, n_head=n_head,
                           n_positions=max(128, seq), bos_token_id=0, eos_token_id=0, **sizes)


def bert(**sizes):
    return _language_model("BertConfig", "BertForMaskedLM", hidden_size=32,
                           num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                           max_position_embeddings=128, pad_token_id=0, **sizes)


def llama(**sizes):
    return _language_model("LlamaConfig", "LlamaForCausalLM", hidden_size=32,
                           intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                           num_key_value_heads=2, max_position_embeddings=128,
                           bos_token_id=0, eos_token_id=0, pad_token_id=0, **sizes)


def qwen2(**sizes):
    return _language_model("Qwen2Config", "Qwen2ForCausalLM", hidden_size=32,
                           intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                           num_key_value_heads=2, max_position_embeddings=128,
                           bos_token_id=0, eos_token_id=0, pad_token_id=0, **sizes)


def mistral(**sizes):
    return _language_model("MistralConfig", "MistralForCausalLM", hidden_size=32,
                           intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                           num_key_value_heads=2, max_position_embeddings=128,
                           bos_token_id=0, eos_token_id=0, pad_token_id=0, **sizes)


def gpt_neox(layers=4, **sizes):
    return _language_model("GPTNeoXConfig", "GPTNeoXForCausalLM", hidden_size=32,
                           intermediate_size=64, num_hidden_layers=layers, num_attention_heads=4,
                           max_position_embeddings=128, bos_token_id=0, eos_token_id=0,
                           **sizes)


def t5_encoder(batch=8, seq=64, vocab=64, layers=4, seed=0):
    import torch
    import transformers
    torch.manual_seed(seed)
    cfg = _no_dropout(transformers.T5Config(vocab_size=vocab, d_model=32, d_kv=8, d_ff=64,
                                            num_layers=layers, num_heads=4))
    model = transformers.T5EncoderModel(cfg).train()
    tokens = _tokens(vocab, batch, seq, seed + 1)
    target = torch.randn(batch, seq, 32, generator=torch.Generator().manual_seed(seed + 2))
    return model, (tokens,), (target,), _encoder_loss


def _classified(model, shape, seed):
    """`model` in training mode with a batch of inputs of `shape` (from
    normal noise) and class labels out of 10 (the batch's first dimension),
    both drawn from a generator seeded `seed + 1`, and the classification
    loss."""
    import torch
    generator = torch.Generator().manual_seed(seed + 1)
    inputs = torch.randn(*shape, generator=generator)
    labels = torch.randint(0, 10, (shape[0],), generator=generator)
    return model.train(), (inputs,), (labels,), _classification_loss


def vit(batch=16, layers=4, seed=0):
    import torch
    import transformers
    torch.manual_seed(seed)
    cfg = _no_dropout(transformers.ViTConfig(image_size=32, patch_size=4, num_channels=3,
                                             hidden_size=32, num_hidden_layers=layers,
                                             num_attention_heads=2, intermediate_size=64,
                                             num_labels=10))
    return _classified(transformers.ViTForImageClassification(cfg), (batch, 3, 32, 32), seed)


def _vision(builder, batch=4, size=32, seed=0, **options):
    import torch
    import torchvision
    torch.manual_seed(seed)
    model = getattr(torchvision.models, builder)(num_classes=10, **options)
    return _classified(model, (batch, 3, size, size), seed)


def resnet18(batch=64, size=64, **sizes):
    # 11.7M parameters: the weights and their gradients are 90 MB, so half
    # the peak needs more activations than that.
    return _vision("resnet18", batch=batch, size=size, **sizes)


def mobilenet_v2(batch=16, size=64, **sizes):
    return _vision("mobilenet_v2", batch=batch, size=size, dropout=0.0, **sizes)


def _encoder(config_class, model_class, **config):
    """A masked-LM encoder (BERT's kin) from a small config."""
    return _language_model(config_class, model_class, hidden_size=32, num_hidden_layers=2,
                           num_attention_heads=2, intermediate_size=64,
                           max_position_embeddings=128, pad_token_id=0, **config)


def roberta(**sizes):
    # Position ids from the padding mask: a running sum (aten.cumsum).
    return _encoder("RobertaConfig", "RobertaForMaskedLM", **sizes)


def deberta_v2(**sizes):
    # Disentangled relative-position attention; reads a token id as a
    # Python bool in eager mode (the padding warning).
    return _encoder("DebertaV2Config", "DebertaV2ForMaskedLM", **sizes)


def electra(**sizes):
    return _encoder("ElectraConfig", "ElectraForMaskedLM", embedding_size=16, **sizes)


def albert(**sizes):
    # One set of layer weights shared by every layer.
    return _encoder("AlbertConfig", "AlbertForMaskedLM", embedding_size=16, **sizes)


def distilbert(**sizes):
    return _language_model("DistilBertConfig", "DistilBertForMaskedLM", dim=32, n_layers=2,
                           n_heads=2, hidden_dim=64, max_position_embeddings=128, **sizes)


def mobilebert(**sizes):
    return _language_model("MobileBertConfig", "MobileBertForMaskedLM", hidden_size=32,
                           embedding_size=16, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, intra_bottleneck_size=16, true_hidden_size=16,
                           num_feedforward_networks=1, max_position_embeddings=128, **sizes)


def opt(**sizes):
    # Learned positions offset by a running sum of the attention mask.
    return _language_model("OPTConfig", "OPTForCausalLM", hidden_size=32, num_hidden_layers=2,
                           ffn_dim=64, num_attention_heads=2, word_embed_proj_dim=32,
                           max_position_embeddings=128, pad_token_id=0, **sizes)


def phi(**sizes):
    return _language_model("PhiConfig", "PhiForCausalLM", hidden_size=32, intermediate_size=64,
                           num_hidden_layers=2, num_attention_heads=4,
                           max_position_embeddings=128, pad_token_id=0, **sizes)


def gemma(**sizes):
    return _language_model("GemmaConfig", "GemmaForCausalLM", hidden_size=32,
                           intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                           num_key_value_heads=2, head_dim=8, max_position_embeddings=128,
                           pad_token_id=0, bos_token_id=0, eos_token_id=0, **sizes)


def bart(batch=8, seq=64, vocab=64, seed=0):
    """An encoder-decoder: the decoder reads the targets shifted right."""
    import torch
    import transformers
    torch.manual_seed(seed)
    cfg = _no_dropout(transformers.BartConfig(
        vocab_size=vocab, d_model=32, encoder_layers=2, decoder_layers=2,
        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
        decoder_ffn_dim=64, max_position_embeddings=128, pad_token_id=1, bos_token_id=0,
        eos_token_id=2, decoder_start_token_id=2))
    model = transformers.BartForConditionalGeneration(cfg).train()
    tokens = _tokens(vocab, batch, seq, seed + 1)
    labels = _tokens(vocab, batch, seq, seed + 2)
    decoder_tokens = torch.cat([torch.full((batch, 1), 2), labels[:, :-1]], 1)
    return model, (tokens, decoder_tokens), (labels,), _language_model_loss


def swin(batch=16, seed=0):
    """Shifted-window attention: constant window masks, a relative-position
    bias table read through an index buffer."""
    import torch
    import transformers
    torch.manual_seed(seed)
    cfg = _no_dropout(transformers.SwinConfig(image_size=32, patch_size=2, embed_dim=16,
                                              depths=[2, 2], num_heads=[2, 2], window_size=4,
                                              num_labels=10))
    return _classified(transformers.SwinForImageClassification(cfg), (batch, 3, 32, 32), seed)


def whisper_encoder(batch=8, frames=64, seed=0):
    """Audio: Whisper's convolutional front end and encoder, classifying
    log-mel frames."""
    import torch
    import transformers
    torch.manual_seed(seed)
    cfg = _no_dropout(transformers.WhisperConfig(
        vocab_size=64, num_mel_bins=16, d_model=32, encoder_layers=2, encoder_attention_heads=2,
        encoder_ffn_dim=64, decoder_layers=1, decoder_attention_heads=2, decoder_ffn_dim=64,
        max_source_positions=frames // 2, num_labels=10, pad_token_id=0, bos_token_id=0,
        eos_token_id=0, decoder_start_token_id=0))
    return _classified(transformers.WhisperForAudioClassification(cfg), (batch, 16, frames),
                       seed)


def wav2vec2(batch=8, samples=1600, seed=0):
    """Audio: wav2vec2's strided convolution feature extractor and a
    weight-normalized positional convolution, classifying raw waveforms."""
    import torch
    import transformers
    torch.manual_seed(seed)
    cfg = _no_dropout(transformers.Wav2Vec2Config(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
        conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16,
        num_conv_pos_embedding_groups=2, num_labels=10, mask_time_prob=0.0))
    return _classified(transformers.Wav2Vec2ForSequenceClassification(cfg), (batch, samples),
                       seed)


def densenet(batch=16, size=32, seed=0):
    """Densely connected: repeated channel concatenation, BN-ReLU-conv,
    average-pool transitions (torchvision's DenseNet at a small growth
    rate)."""
    import torch
    import torchvision
    torch.manual_seed(seed)
    model = torchvision.models.DenseNet(growth_rate=8, block_config=(2, 2, 2),
                                        num_init_features=16, num_classes=10)
    return _classified(model, (batch, 3, size, size), seed)


def efficientnet_b0(batch=16, size=64, **sizes):
    # Squeeze-excite, SiLU, depthwise convolutions.
    return _vision("efficientnet_b0", batch=batch, size=size, stochastic_depth_prob=0.0,
                   dropout=0.0, **sizes)


def regnet_y(batch=16, size=64, **sizes):
    # Grouped convolutions (group width 8), squeeze-excite, strided stages.
    return _vision("regnet_y_400mf", batch=batch, size=size, **sizes)


def shufflenet(batch=16, size=64, **sizes):
    # Channel shuffles and chunks.
    return _vision("shufflenet_v2_x0_5", batch=batch, size=size, **sizes)


def mnasnet(batch=16, size=64, **sizes):
    return _vision("mnasnet0_5", batch=batch, size=size, dropout=0.0, **sizes)


def mobilenet_v3(batch=16, size=64, **sizes):
    # Hard-swish, hard-sigmoid squeeze-excite.
    return _vision("mobilenet_v3_small", batch=batch, size=size, dropout=0.0, **sizes)


def squeezenet(batch=16, size=64, **sizes):
    # Fire modules (concatenated 1x1 and 3x3 expansions), ceil-mode max
    # pools, an adaptive average pool.
    return _vision("squeezenet1_1", batch=batch, size=size, dropout=0.0, **sizes)


def convnext(batch=16, size=32, seed=0):
    """Depthwise 7x7 convolutions, LayerNorm over channels, layer scale
    (torchvision's ConvNeXt at two small stages)."""
    import torch
    from torchvision.models.convnext import CNBlockConfig, ConvNeXt
    torch.manual_seed(seed)
    model = ConvNeXt([CNBlockConfig(16, 32, 2), CNBlockConfig(32, None, 2)],
                     stochastic_depth_prob=0.0, num_classes=10)
    return _classified(model, (batch, 3, size, size), seed)


#: name -> builder of (model, inputs, targets, loss_fn).
ZOO = {
    "gpt2-sdpa": functools.partial(gpt2, attention="sdpa"),
    "gpt2-eager": functools.partial(gpt2, attention="eager"),
    "bert": bert,
    "llama": llama,
    "t5-encoder": t5_encoder,
    "vit": vit,
    "qwen2": qwen2,
    "mistral": mistral,
    "gpt-neox": gpt_neox,
    "resnet18": resnet18,
    "mobilenet-v2": mobilenet_v2,
    # Families added for issue 51 (models nobody here wrote).
    "roberta": roberta,
    "deberta-v2": deberta_v2,
    "electra": electra,
    "albert": albert,
    "distilbert": distilbert,
    "mobilebert": mobilebert,
    "opt": opt,
    "phi": phi,
    "gemma": gemma,
    "bart": bart,
    "swin": swin,
    "whisper-encoder": whisper_encoder,
    "wav2vec2": wav2vec2,
    "densenet": densenet,
    "efficientnet-b0": efficientnet_b0,
    "regnet-y": regnet_y,
    "shufflenet": shufflenet,
    "mnasnet": mnasnet,
    "mobilenet-v3": mobilenet_v3,
    "squeezenet": squeezenet,
    "convnext": convnext,
}
