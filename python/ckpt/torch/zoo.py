"""Real PyTorch models, built from small configs with random weights
(nothing is downloaded), for the coverage table and the frontend's tests:
Hugging Face transformers (GPT-2 with SDPA and eager attention, BERT,
Llama, T5's encoder, ViT, Qwen2, Mistral, GPT-NeoX) and torchvision
(ResNet-18, MobileNetV2), in training mode with every dropout probability
0.

    model, inputs, targets, loss_fn = ZOO["gpt2-sdpa"]()

Each entry returns the model, its inputs and targets (tuples of tensors)
and the loss `loss_fn(model(*inputs), *targets)`. Sizes are chosen so that
activations, not weights, dominate the step's peak (otherwise no budget at
half the peak exists).
"""

import functools


def _no_dropout(config):
    """Sets every dropout probability of a transformers config to 0."""
    for name, value in list(vars(config).items()):
        if isinstance(value, float) and ("dropout" in name or "pdrop" in name):
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


def vit(batch=16, layers=4, seed=0):
    import torch
    import transformers
    torch.manual_seed(seed)
    cfg = _no_dropout(transformers.ViTConfig(image_size=32, patch_size=4, num_channels=3,
                                             hidden_size=32, num_hidden_layers=layers,
                                             num_attention_heads=2, intermediate_size=64,
                                             num_labels=10))
    model = transformers.ViTForImageClassification(cfg).train()
    generator = torch.Generator().manual_seed(seed + 1)
    images = torch.randn(batch, 3, 32, 32, generator=generator)
    labels = torch.randint(0, 10, (batch,), generator=generator)
    return model, (images,), (labels,), _classification_loss


def _vision(builder, batch=4, size=32, seed=0, **options):
    import torch
    import torchvision
    torch.manual_seed(seed)
    model = getattr(torchvision.models, builder)(num_classes=10, **options).train()
    generator = torch.Generator().manual_seed(seed + 1)
    images = torch.randn(batch, 3, size, size, generator=generator)
    labels = torch.randint(0, 10, (batch,), generator=generator)
    return model, (images,), (labels,), _classification_loss


def resnet18(batch=64, size=64, **sizes):
    # 11.7M parameters: the weights and their gradients are 90 MB, so half
    # the peak needs more activations than that.
    return _vision("resnet18", batch=batch, size=size, **sizes)


def mobilenet_v2(batch=16, size=64, **sizes):
    return _vision("mobilenet_v2", batch=batch, size=size, dropout=0.0, **sizes)


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
}
