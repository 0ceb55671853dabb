"""Per-role contracts: the structured inputs each phase hands to an LLM call and the
pydantic output it expects back. Remote models see these through prompts and JSON
schemas; the offline engine computes the outputs from the inputs directly.

Every output field carries a description, because a remote model reads it in the JSON
schema: it says what the field means and, for a yes/no decision, which way to lean when
unsure ("If unsure, true."). Reasoning fields come before the decisions they justify, so
a model writes its reasons first. No field is asked for that the code does not use.
"""

from __future__ import annotations

from deepresearch.roles.gathering import (
    BriefInputs,
    BriefOutput,
    ClarifyInputs,
    ClarifyOutput,
    CompressInputs,
    CompressOutput,
    Contract,
    PlanInputs,
    PlannedQuery,
    PlanOutput,
    ReflectInputs,
    ReflectOutput,
    ScoutHit,
    SourceLinks,
    SourceText,
    SummarizeInputs,
    SummaryOutput,
    TopicDigest,
)
from deepresearch.roles.review import (
    AnalysisOutput,
    AnalyzeInputs,
    CoverageAssessment,
    DelegationOutput,
    DirectiveDraft,
    FindingDraft,
    GapDraft,
    QualityUpdate,
    SupervisionInputs,
    ThinkOutput,
)
from deepresearch.roles.spec import ROUTES, RoleSpec, Routing
from deepresearch.roles.writing import (
    ClaimToCheck,
    ClaimVerdict,
    CondenseInputs,
    CondenseOutput,
    FindingBrief,
    FollowUp,
    GapAssessment,
    GapBrief,
    IterationRecommendation,
    RefineInputs,
    RefinementOutput,
    ReportDraft,
    SourceRef,
    SynthesizeInputs,
    VerifyInputs,
    VerifyOutput,
)

__all__ = [
    "ROUTES",
    "AnalysisOutput",
    "AnalyzeInputs",
    "BriefInputs",
    "BriefOutput",
    "ClaimToCheck",
    "ClaimVerdict",
    "ClarifyInputs",
    "ClarifyOutput",
    "CompressInputs",
    "CompressOutput",
    "CondenseInputs",
    "CondenseOutput",
    "Contract",
    "CoverageAssessment",
    "DelegationOutput",
    "DirectiveDraft",
    "FindingBrief",
    "FindingDraft",
    "FollowUp",
    "GapAssessment",
    "GapBrief",
    "GapDraft",
    "IterationRecommendation",
    "PlanInputs",
    "PlanOutput",
    "PlannedQuery",
    "QualityUpdate",
    "RefineInputs",
    "RefinementOutput",
    "ReflectInputs",
    "ReflectOutput",
    "ReportDraft",
    "RoleSpec",
    "Routing",
    "ScoutHit",
    "SourceLinks",
    "SourceRef",
    "SourceText",
    "SummarizeInputs",
    "SummaryOutput",
    "SupervisionInputs",
    "SynthesizeInputs",
    "ThinkOutput",
    "TopicDigest",
    "VerifyInputs",
    "VerifyOutput",
]
