"""Skor's actions in their JSON form (docs/skor.md, "Actions"): the tag `action` names the
kind. Names of hexes, kinds, structures and branches are plain text here: an unknown one is
a refusal with its reason, not a malformed request."""

from typing import Annotated, get_args

import msgspec

Name = Annotated[str, msgspec.Meta(max_length=40)]
Amount = Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)]


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="action"):
    pass


class Move(Action, frozen=True, tag="move", omit_defaults=True):
    from_: Name = msgspec.field(name="from")
    to: Name
    kind: Name | None = None
    covert: bool = False


class Fire(Action, frozen=True, tag="fire"):
    from_: Name = msgspec.field(name="from")
    at: Name


class City(Action, frozen=True, tag="city"):
    to: Name


class Spawn(Action, frozen=True, tag="spawn", omit_defaults=True):
    at: Name | None = None


class Remove(Action, frozen=True, tag="remove", omit_defaults=True):
    at: Name
    kind: Name | None = None


class Build(Action, frozen=True, tag="build"):
    structure: Name
    at: Name


class Debris(Action, frozen=True, tag="debris"):
    at: Name


class Promote(Action, frozen=True, tag="promote"):
    at: Name


class Send(Action, frozen=True, tag="send", omit_defaults=True):
    amount: Amount
    place: Annotated[list[Name], msgspec.Meta(max_length=100)] = []


class Spy(Action, frozen=True, tag="spy"):
    sacrifice1: Name
    sacrifice2: Name
    at: Name


class Sabotage(Action, frozen=True, tag="sabotage"):
    at: Name


class Research(Action, frozen=True, tag="research"):
    branch: Name


class End(Action, frozen=True, tag="end"):
    pass


class Resign(Action, frozen=True, tag="resign"):
    pass


# Every kind of action, as one tagged union: what an event records decodes by its tag (the
# base class alone decodes no tag).
AnyAction = (
    Move
    | Fire
    | City
    | Spawn
    | Remove
    | Build
    | Debris
    | Promote
    | Send
    | Spy
    | Sabotage
    | Research
    | End
    | Resign
)
KINDS: dict[str, type[Action]] = {kind.__struct_config__.tag: kind for kind in get_args(AnyAction)}
