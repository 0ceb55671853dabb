"""A role defined once: :class:`RoleSpec` holds everything one kind of LLM call needs —
its system prompt, how its user message is rendered from its inputs, the input and
output types, and the offline engine's function for it. Model routing (which configured
models answer, the default temperature and output limit, whether a vendor's small model
will do) belongs to the :class:`~deepresearch.state.AgentRole` the call is made as, and
lives in :data:`ROUTES`: several specs share a role (the supervisor's three steps).

The specs themselves are defined beside their prompts (``deepresearch.phases.agents``;
the budget's condenser in ``deepresearch.budget.degrade``) and called with
``deepresearch.llm.ask``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel

from deepresearch.state.models import AgentRole, Phase

InT = TypeVar("InT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)


@dataclass(frozen=True)
class Routing:
    """How a role's calls are routed: ``chain`` lists the ``Config.role_models`` keys
    tried in order (the default model ends every chain); ``cheap`` roles default to the
    vendor's small model when none of those keys is set."""

    chain: tuple[str, ...]
    temperature: float | None = None
    max_tokens: int | None = None
    cheap: bool = False


# Each role's resolution chain, most specific key first (docs/providers.md, "Role routing").
ROUTES: dict[AgentRole, Routing] = {
    AgentRole.CLARIFIER: Routing(("clarification", "research")),
    AgentRole.BRIEFER: Routing(("brief", "research")),
    AgentRole.PLANNER: Routing(("planner", "research"), temperature=0.3),
    AgentRole.RESEARCHER: Routing(("research",)),
    AgentRole.SUMMARIZER: Routing(("summarization",), temperature=0.0, cheap=True),
    AgentRole.COMPRESSOR: Routing(
        ("compression", "research"), temperature=0.0, max_tokens=4000, cheap=True
    ),
    AgentRole.SUPERVISOR: Routing(
        ("supervision", "reflection", "research"), temperature=0.3, cheap=True
    ),
    AgentRole.ANALYZER: Routing(("analyzer", "research"), temperature=0.2, max_tokens=4000),
    AgentRole.SYNTHESIZER: Routing(("report", "research"), temperature=0.4, max_tokens=8000),
    AgentRole.REFINER: Routing(("refiner", "research")),
    AgentRole.VERIFIER: Routing(("verifier", "research"), temperature=0.0),
    AgentRole.REFLECTION: Routing(("reflection", "research"), cheap=True),
}


@dataclass
class RoleSpec(Generic[InT, OutT]):
    """One kind of LLM call.

    Args:
        name: names the call in the audit trail (a failed call is ``<name>_failed``).
        role: the role it is made as (model routing, see :data:`ROUTES`).
        phase: the phase it normally runs in (a call may name another).
        system: the system prompt, or a function of the inputs that writes it.
        user: renders the user message from the inputs.
        inputs: the structured inputs' type.
        output: the type the answer is validated as.
        offline: the offline engine's answer, computed from the inputs alone.
    """

    name: str
    role: AgentRole
    phase: Phase
    system: str | Callable[[InT], str]
    user: Callable[[InT], str]
    inputs: type[InT]
    output: type[OutT]
    offline: Callable[[InT], BaseModel]

    @property
    def agent(self) -> str:
        """Who the audit trail says decided (``planner``, ``refiner``, ...)."""
        return self.role.name.lower()

    @property
    def routing(self) -> Routing:
        """How calls made as this spec's role are routed (its entry in :data:`ROUTES`)."""
        return ROUTES[self.role]

    def system_prompt(self, inputs: InT) -> str:
        """The system prompt for one call.

        Args:
            inputs: the call's inputs, for a prompt written from them.
        """
        return self.system(inputs) if callable(self.system) else self.system

    def __repr__(self) -> str:
        return f"RoleSpec({self.name!r}, {self.inputs.__name__} -> {self.output.__name__})"
