"""Doors for researchers: intrigue's games in OpenSpiel and PettingZoo.

The adapters live in submodules so that importing `intrigue` never needs their libraries:

* `intrigue.interop.openspiel` (extra ``openspiel``) registers every game with OpenSpiel;
* `intrigue.interop.pettingzoo` (extra ``pettingzoo``) builds PettingZoo AEC environments;
* `intrigue.interop.tensors` holds each game's fixed-size observation tensor (needs numpy).

See docs/interop.md.
"""
