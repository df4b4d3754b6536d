"""The fixed-size observation tensors: size, range, what they encode, and that they depend on
nothing but the seat's view."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from interop_support import CONFIG_IDS, CONFIGS, played_states, random_positions, short  # noqa: E402

import intrigue  # noqa: E402
from intrigue.engine import Rng, game_ids  # noqa: E402
from intrigue.interop.tensors import encoder  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "interop.md"


def test_every_game_has_an_encoder():
    for game_id in game_ids():
        assert encoder(game_id).game_id == game_id


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_tensors_are_fixed_size_and_in_range(game_id, players):
    enc = encoder(game_id)
    for state in played_states(game_id, players, seed=3, max_turns=4):
        for seat in [None, *range(players)]:
            x = enc.encode(state.view(seat))
            assert x.shape == (enc.size,)
            assert x.dtype == np.float32
            assert x.min() >= 0.0 and x.max() <= 1.0


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_equal_views_give_equal_tensors(game_id, players):
    """A determinization for a seat keeps its view, so its tensor must not change; a seat that
    cannot tell two states apart gets the same tensor for both."""
    enc = encoder(game_id)
    for i, state in enumerate(random_positions(game_id, players, 6, seed=11)):
        seat = state.to_move[0]
        sample = state.determinize(seat, Rng(i))
        assert sample.view(seat) == state.view(seat)
        assert np.array_equal(enc.encode(sample.view(seat)), enc.encode(state.view(seat)))


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_tensor_depends_on_the_seat(game_id, players):
    """Different seats see different things (at least their own seat), so tensors differ."""
    enc = encoder(game_id)
    state = random_positions(game_id, players, 1, seed=5)[0]
    tensors = [enc.encode(state.view(seat)).tobytes() for seat in range(players)]
    assert len(set(tensors)) == players


def _field(x, game_id, name):
    layout = encoder(game_id).layout
    start = layout.offsets[name]
    size = next(f.size for f in layout.fields if f.name == name)
    return x[start : start + size]


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_phase_is_always_encoded(game_id, players):
    """Every phase a game reaches is in the encoder's vocabulary (catches renamed phases)."""
    enc = encoder(game_id)
    for state in played_states(game_id, players, seed=8, max_turns=6):
        x = enc.encode(state.view(0))
        assert _field(x, game_id, "phase").sum() == 1.0, state.view(0)["phase"]


def test_masquerade_murder_fields_follow_the_view():
    states = played_states("masquerade-murder", 5, seed=2, max_turns=4)
    for state in states:
        for seat in range(5):
            view = state.view(seat)
            x = encoder("masquerade-murder").encode(view)
            role = _field(x, "masquerade-murder", "you_role")
            assert role.sum() == 1.0 and role[_ROLES.index(view["you"]["role"])] == 1.0
            cells = _field(x, "masquerade-murder", "table_cell").sum()
            assert cells == sum(row["cell"] is not None for row in view["table"])
            if view["nights"]:
                placed = _field(x, "masquerade-murder", "n0_cells").sum()
                assert placed == len(view["nights"][-1]["cells"])
        spectator = encoder("masquerade-murder").encode(state.view(None))
        assert _field(spectator, "masquerade-murder", "you_role").sum() == 0.0
    over = states[-1].view(None)
    assert (
        _field(encoder("masquerade-murder").encode(over), "masquerade-murder", "roles").sum() == 5
    )


_ROLES = ["constable", "thug", "seductress", "assassin", "duke"]


@pytest.mark.parametrize("players", [2, 4])
def test_masquerade_ball_places_every_visible_card(players):
    enc = encoder("masquerade-ball")
    for state in played_states("masquerade-ball", players, seed=4, max_turns=12):
        view = state.view(0)
        x = enc.encode(view)
        places = _field(x, "masquerade-ball", "places").reshape(-1, 23)
        cards = list(view["board"].values()) + list(view["ballroom"] or [])[:16]
        assert places[:, :4].sum() == len(cards)  # one side bit per card on the board
        known = sum(card["rank"] is not None for card in cards)
        assert places[:, 5:19].sum() == known


def test_project_assassination_board_follows_the_view():
    enc = encoder("project-assassination")
    for state in played_states("project-assassination", 2, seed=6, max_turns=12):
        view = state.view(0)
        x = enc.encode(view)
        assert _field(x, "project-assassination", "enemy_kind").sum() == len(view["enemies"])
        assert _field(x, "project-assassination", "obstacles").sum() == len(view["obstacles"])
        assert _field(x, "project-assassination", "loose").sum() == len(view["loose"])
        assert _field(x, "project-assassination", "position").sum() == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shadows_over_japan_board_follows_the_view(players):
    enc = encoder("shadows-over-japan")
    for state in played_states("shadows-over-japan", players, seed=7, max_turns=3)[::5]:
        view = state.view(0)
        x = enc.encode(view)
        ninjas = sum(p["ninja"] is not None for p in view["provinces"])
        assert _field(x, "shadows-over-japan", "ninja").sum() == ninjas
        assert _field(x, "shadows-over-japan", "owner").sum() == 72  # every province has one
        hand = _field(x, "shadows-over-japan", "you_hand").sum()
        assert hand == len({card["key"] for card in view["you"]["hand"]})


def test_docs_hold_every_layout_table():
    """Each game's rules document carries its layout table exactly as the encoder defines it."""
    for game_id in game_ids():
        text = (DOCS.parent / "games" / f"{game_id}.md").read_text(encoding="utf-8")
        table = encoder(game_id).layout.markdown()
        assert table in text, f"docs/games/{game_id}.md is missing the current layout"
        assert re.search(rf"Observation tensor for `{re.escape(game_id)}`", text)


def test_layout_offsets_are_contiguous():
    for game_id in game_ids():
        layout = encoder(game_id).layout
        offset = 0
        for f in layout.fields:
            assert layout.offsets[f.name] == offset
            offset += f.size
        assert offset == layout.size
        assert intrigue.load(game_id)  # the encoder's game exists


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_incremental_updates_equal_fresh_encodings(game_id, players):
    """`Encoder.update` (sections encoded again only when their view parts changed, or copied
    from another canvas's encoding of equal parts) gives every seat what a fresh encoding of
    its view gives, whether its canvas is one step or many behind."""
    enc = encoder(game_id)
    rng = np.random.default_rng(5)
    for seed in (1, 2):
        canvases = {seat: enc.layout.canvas() for seat in [None, *range(players)]}
        for state in played_states(game_id, players, seed=seed, max_turns=short(game_id) + 2):
            for seat in rng.permutation(players + 1):
                seat = None if seat == players else int(seat)
                if rng.random() < 0.3:  # this seat is not asked now: its canvas falls behind
                    continue
                enc.update(canvases[seat], state.shared_view(seat))
                assert np.array_equal(canvases[seat].data, enc.encode(state.view(seat)))


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_an_adopted_encoding_updated_equals_a_fresh_one(game_id, players):
    """`Encoder.adopt` then `update` (a seat's tensor made from another seat's encoding of the
    same position, as OpenSpiel's observer does where seats see alike) gives what a fresh
    encoding of the seat's own view gives, in every game, whichever seat it starts from."""
    enc = encoder(game_id)
    rng = np.random.default_rng(7)
    seats = [None, *range(players)]
    canvases = {seat: enc.layout.canvas() for seat in seats}
    for state in played_states(game_id, players, seed=4, max_turns=short(game_id) + 2):
        order = list(rng.permutation(len(seats)))
        first = seats[order[0]]
        enc.update(canvases[first], state.shared_view(first))
        for k in order[1:]:
            seat = seats[k]
            if rng.random() < 0.7:
                enc.adopt(canvases[seat], canvases[first])
            enc.update(canvases[seat], state.shared_view(seat))
            assert np.array_equal(canvases[seat].data, enc.encode(state.view(seat)))
