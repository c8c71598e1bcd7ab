"""Tests for the persistent ordered map the run state keeps its mappings in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a2ui_stream._state.persistent import (
    VECTOR_AT,
    OrderedMap,
    Vector,
    last_items,
    vector,
    with_appended,
    with_last,
)

# (operation, key, value): "set" keeps a key's place, "last" moves it to the end.
_STEPS = st.lists(
    st.tuples(
        st.sampled_from(["set", "last", "delete"]),
        st.integers(min_value=0, max_value=40),
        st.integers(),
    ),
    max_size=300,
)


def _model_step(model: dict[int, int], op: str, key: int, value: int) -> dict[int, int]:
    """What a plain dict does for the same step, on a copy."""
    out = dict(model)
    if op == "set":
        out[key] = value
    elif op == "last":
        out.pop(key, None)
        out[key] = value
    else:
        out.pop(key, None)
    return out


def _step(pmap: OrderedMap[int, int], op: str, key: int, value: int) -> OrderedMap[int, int]:
    if op == "set":
        return pmap.set(key, value)
    if op == "last":
        return pmap.set_last(key, value)
    return pmap.delete(key)


class TestOrderedMap:
    @settings(max_examples=200, deadline=None)
    @given(_STEPS)
    def test_behaves_as_an_insertion_ordered_dict(self, steps: list[tuple[str, int, int]]) -> None:
        """Every step gives the dict's items in the dict's order; older maps never change."""
        pmap: OrderedMap[int, int] = OrderedMap()
        model: dict[int, int] = {}
        history: list[tuple[OrderedMap[int, int], list[tuple[int, int]]]] = []
        for op, key, value in steps:
            pmap, model = _step(pmap, op, key, value), _model_step(model, op, key, value)
            assert list(pmap.items()) == list(model.items())
            assert list(reversed(pmap)) == list(reversed(model))
            assert len(pmap) == len(model)
            assert pmap.last_key() == next(reversed(model), None)
            assert sorted(pmap, key=pmap.position) == list(model)
            assert [pmap.get(k, -1) for k in range(-1, 42)] == [
                model.get(k, -1) for k in range(-1, 42)
            ]
            history.append((pmap, list(model.items())))
        for old, items in history:
            assert list(old.items()) == items
            assert [old.get(k) for k, _ in items] == [v for _, v in items]

    def test_equality_is_a_dicts(self) -> None:
        """Equal to a dict or a map with the same items in any order; never hashable."""
        a = OrderedMap({"x": 1, "y": 2})
        b = OrderedMap({"y": 2, "x": 1})
        assert a == b
        assert a == {"x": 1, "y": 2}
        assert a == {"y": 2, "x": 1}
        plain = {"y": 2, "x": 1}
        assert plain == a  # a dict on the left defers to the map
        assert a != {"x": 1}
        assert a != {"x": 1, "y": 3}
        assert a != {"x": 1, "z": 2}
        with pytest.raises(TypeError):
            hash(a)

    def test_read_only(self) -> None:
        """A Mapping without any way to change it in place."""
        a = OrderedMap({"x": 1})
        assert isinstance(a, Mapping)
        with pytest.raises(TypeError):
            a["y"] = 2  # type: ignore[index]
        with pytest.raises(AttributeError):
            a.z = 1  # type: ignore[attr-defined]
        assert a.get("y") is None
        assert a.get("y", 0) == 0
        assert "x" in a
        assert "y" not in a

    def test_unchanged_value_keeps_the_map(self) -> None:
        """Setting the very value a key holds returns the same map, and deleting nothing too."""
        value = object()
        a = OrderedMap({"x": value})
        assert a.set("x", value) is a
        assert a.delete("absent") is a

    def test_stamps_are_renumbered(self) -> None:
        """Moving one key to the end many times keeps iteration short."""
        a = OrderedMap({"x": 0, "y": 0})
        for i in range(1000):
            a = a.set_last("x" if i % 2 else "y", i)
        assert list(a.items()) == [("y", 998), ("x", 999)]
        assert a._next <= 2 * len(a) + 32 + 1

    def test_position_of_absent_key(self) -> None:
        with pytest.raises(KeyError):
            OrderedMap[str, int]().position("x")

    def test_repr(self) -> None:
        assert repr(OrderedMap({"x": 1})) == "OrderedMap({'x': 1})"


# (operation, value, count): "append" adds after the last item, "last" replaces it,
# "keep" keeps the last ``count`` items.
_VECTOR_STEPS = st.lists(
    st.tuples(
        st.sampled_from(["append", "append", "last", "keep"]),
        st.integers(),
        st.integers(min_value=0, max_value=8),
    ),
    max_size=200,
)


class TestVector:
    @settings(max_examples=200, deadline=None)
    @given(_VECTOR_STEPS)
    def test_every_step_reads_as_a_tuple_and_leaves_the_old_vector(
        self, steps: list[tuple[str, int, int]]
    ) -> None:
        vector: Vector[int] = Vector()
        model: tuple[int, ...] = ()
        for op, value, count in steps:
            before, seen = vector, model
            if op == "append":
                vector, model = vector.append(value), (*model, value)
            elif op == "last" and model:
                vector, model = vector.set_last(value), (*model[:-1], value)
            elif op == "keep":
                vector, model = vector.last(count), model[max(len(model) - count, 0) :]
            assert vector == model
            assert model == vector
            assert (len(vector), tuple(vector), list(reversed(vector))) == (
                len(model),
                model,
                list(reversed(model)),
            )
            assert [vector[i] for i in range(-len(model), len(model))] == [
                model[i] for i in range(-len(model), len(model))
            ]
            assert vector[1:-1] == model[1:-1]
            assert vector[::2] == model[::2]
            assert before == seen  # a value: the step made a new vector
            assert hash(vector) == hash(model)

    def test_reads_outside_are_index_errors(self) -> None:
        for outside in (Vector[int](), Vector([1, 2])):
            with pytest.raises(IndexError):
                outside[len(outside)]
            with pytest.raises(IndexError):
                outside[-len(outside) - 1]
        with pytest.raises(IndexError):
            Vector[int]().set_last(1)

    def test_equal_only_to_sequences(self) -> None:
        assert Vector([1]) != [2]
        assert Vector("ab") != "ab"  # a string is a sequence, but never a run list
        assert Vector([1]) != {1}
        assert repr(Vector([1, 2])) == "Vector([1, 2])"

    def test_vector_of_a_vector_is_itself(self) -> None:
        made = Vector([1, 2])
        assert vector(made) is made
        assert vector((1, 2)) == made


class TestRunSequences:
    """The helpers a stream's runs go through: a tuple while short, a Vector after."""

    def test_short_stays_a_tuple_and_long_becomes_a_vector(self) -> None:
        runs: Sequence[int] = ()
        for count in range(1, VECTOR_AT + 5):
            runs = with_appended(runs, count)
            assert type(runs) is (tuple if count < VECTOR_AT else Vector)
            assert runs == tuple(range(1, count + 1))
            runs = with_last(runs, -count)
            assert runs[-1] == -count
            runs = with_last(runs, count)
        assert last_items(runs, 3) == (VECTOR_AT + 2, VECTOR_AT + 3, VECTOR_AT + 4)
        assert type(last_items(runs, 3)) is tuple
        assert type(last_items(runs, VECTOR_AT)) is Vector
        assert last_items(runs, 0) == ()
        assert last_items((1, 2), 5) == (1, 2)
