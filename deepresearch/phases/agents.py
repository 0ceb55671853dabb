"""Every role the phases call, each defined once as a :class:`~deepresearch.roles.RoleSpec`:
its prompts (``phases.prompts``), its contracts (``deepresearch.roles``) and its offline
answer (``deepresearch.offline``). A phase calls one with ``await ask(SPEC, inputs, state,
ctx)`` (``deepresearch.llm.ask``). The budget's condenser is defined beside its prompt in
``deepresearch.budget.degrade``.
"""

from __future__ import annotations

from deepresearch.offline import analysis, planning, report, research, supervision, verify
from deepresearch.phases import prompts
from deepresearch.roles import (
    AnalysisOutput,
    AnalyzeInputs,
    BriefInputs,
    BriefOutput,
    ClarifyInputs,
    ClarifyOutput,
    CompressInputs,
    CompressOutput,
    CoverageAssessment,
    DelegationOutput,
    PlanInputs,
    PlanOutput,
    RefineInputs,
    RefinementOutput,
    ReflectInputs,
    ReflectOutput,
    ReportDraft,
    RoleSpec,
    SummarizeInputs,
    SummaryOutput,
    SupervisionInputs,
    SynthesizeInputs,
    ThinkOutput,
    VerifyInputs,
    VerifyOutput,
)
from deepresearch.state import AgentRole, Phase

CLARIFIER = RoleSpec(
    "clarify", AgentRole.CLARIFIER, Phase.CLARIFICATION, prompts.CLARIFY_SYSTEM,
    prompts.clarify_user, ClarifyInputs, ClarifyOutput, planning.clarify,
)  # fmt: skip
BRIEFER = RoleSpec(
    "brief", AgentRole.BRIEFER, Phase.BRIEF, prompts.BRIEF_SYSTEM,
    prompts.brief_user, BriefInputs, BriefOutput, planning.brief,
)  # fmt: skip
PLANNER = RoleSpec(
    "plan", AgentRole.PLANNER, Phase.PLANNING, prompts.PLAN_SYSTEM,
    prompts.plan_user, PlanInputs, PlanOutput, planning.plan,
)  # fmt: skip
SUMMARIZER = RoleSpec(
    "summarize", AgentRole.SUMMARIZER, Phase.GATHERING, prompts.SUMMARIZE_SYSTEM,
    prompts.summarize_user, SummarizeInputs, SummaryOutput, research.summarize,
)  # fmt: skip
RESEARCHER = RoleSpec(
    "reflect", AgentRole.RESEARCHER, Phase.GATHERING, prompts.REFLECT_SYSTEM,
    prompts.reflect_user, ReflectInputs, ReflectOutput, research.reflect,
)  # fmt: skip
COMPRESSOR = RoleSpec(
    "compress", AgentRole.COMPRESSOR, Phase.GATHERING, prompts.COMPRESS_SYSTEM,
    prompts.compress_user, CompressInputs, CompressOutput, research.compress,
)  # fmt: skip
SUPERVISOR_THINK = RoleSpec(
    "supervise_think", AgentRole.SUPERVISOR, Phase.SUPERVISION, prompts.SUPERVISE_THINK_SYSTEM,
    prompts.supervise_user, SupervisionInputs, ThinkOutput, supervision.supervise_think,
)  # fmt: skip
SUPERVISOR_DELEGATE = RoleSpec(
    "supervise_delegate", AgentRole.SUPERVISOR, Phase.SUPERVISION,
    prompts.SUPERVISE_DELEGATE_SYSTEM, prompts.supervise_user, SupervisionInputs,
    DelegationOutput, supervision.supervise_delegate,
)  # fmt: skip
SUPERVISOR_ASSESS = RoleSpec(
    "supervise_assess", AgentRole.SUPERVISOR, Phase.SUPERVISION,
    prompts.SUPERVISE_ASSESS_SYSTEM, prompts.supervise_user, SupervisionInputs,
    CoverageAssessment, supervision.supervise_assess,
)  # fmt: skip
ANALYZER = RoleSpec(
    "analyze", AgentRole.ANALYZER, Phase.ANALYSIS, prompts.ANALYZE_SYSTEM,
    prompts.analyze_user, AnalyzeInputs, AnalysisOutput, analysis.analyze,
)  # fmt: skip
SYNTHESIZER = RoleSpec(
    "synthesize", AgentRole.SYNTHESIZER, Phase.SYNTHESIS, prompts.SYNTHESIZE_SYSTEM,
    prompts.synthesize_user, SynthesizeInputs, ReportDraft, report.synthesize,
)  # fmt: skip
VERIFIER = RoleSpec(
    "verify", AgentRole.VERIFIER, Phase.VERIFICATION, prompts.VERIFY_SYSTEM,
    prompts.verify_user, VerifyInputs, VerifyOutput, verify.verify,
)  # fmt: skip
REFINER = RoleSpec(
    "refine", AgentRole.REFINER, Phase.REFINEMENT, prompts.REFINE_SYSTEM,
    prompts.refine_user, RefineInputs, RefinementOutput, planning.refine,
)  # fmt: skip

ALL: tuple[RoleSpec, ...] = (  # type: ignore[type-arg]
    CLARIFIER, BRIEFER, PLANNER, SUMMARIZER, RESEARCHER, COMPRESSOR, SUPERVISOR_THINK,
    SUPERVISOR_DELEGATE, SUPERVISOR_ASSESS, ANALYZER, SYNTHESIZER, VERIFIER, REFINER,
)  # fmt: skip
