"""The type stubs (python/sculptflow.pyi) name everything the module offers, so that
editors complete it: each public module attribute, and each public member of its classes."""

import ast
import pathlib

import sculptflow

STUBS = pathlib.Path(__file__).resolve().parent.parent / "sculptflow.pyi"


def _stubbed():
    names, members = set(), {}
    for node in ast.parse(STUBS.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    return names, members


def _public(names):
    return {n for n in names if not n.startswith("_")}


def test_stubs_name_every_public_attribute():
    names, members = _stubbed()
    assert _public(dir(sculptflow)) - names == set()
    for name in _public(dir(sculptflow)):
        kind = getattr(sculptflow, name)
        if isinstance(kind, type) and not issubclass(kind, BaseException):
            assert _public(vars(kind)) - members.get(name, set()) == set(), name
