"""Token budgets and fidelity: fit research content into each model's context window,
degrade the least important content first, and report what was compressed or dropped."""

from deepresearch.budget.allocator import (
    BudgetItem,
    DegradationLevel,
    FittedItem,
    TokenBudget,
    fidelity_level,
    fidelity_line,
    finding_item,
    report_fidelity,
    source_item,
)
from deepresearch.budget.archive import ArchiveRecord, ContentArchive
from deepresearch.budget.limits import context_limit
from deepresearch.budget.tokens import count_tokens, truncate_to_tokens

__all__ = [
    "ArchiveRecord",
    "BudgetItem",
    "ContentArchive",
    "DegradationLevel",
    "FittedItem",
    "TokenBudget",
    "context_limit",
    "count_tokens",
    "fidelity_level",
    "fidelity_line",
    "finding_item",
    "report_fidelity",
    "source_item",
    "truncate_to_tokens",
]
