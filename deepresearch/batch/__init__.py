"""Research many questions at once: in this process (asyncio) or on a Ray cluster.

>>> result = await dr.research_many(questions, concurrency=8)
>>> result.frame  # one row per question
"""

from deepresearch.batch.core import research_many, research_many_sync
from deepresearch.batch.inputs import read_questions
from deepresearch.batch.jobs import job_id
from deepresearch.batch.result import BatchResult, BatchRow
from deepresearch.errors import BudgetExhaustedError
from deepresearch.providers.shared_limits import ProviderLimit

__all__ = [
    "BatchResult",
    "BatchRow",
    "BudgetExhaustedError",
    "ProviderLimit",
    "job_id",
    "read_questions",
    "research_many",
    "research_many_sync",
]
