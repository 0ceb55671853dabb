"""Faithful resume: what a state records about its providers, and how a resume uses it.

A session resumed from the store must search the same corpus with the same models and
settings it started with — never silently the demo corpus. Built-in providers are rebuilt
from the recorded Config; a custom provider object cannot be, so resuming without passing
it again is a clear error instead of a switch to another provider.
"""

from __future__ import annotations

from deepresearch.config import Config, flat_fields
from deepresearch.errors import InputError
from deepresearch.redaction import REDACTED
from deepresearch.state import ResearchState
from deepresearch.state.models import ProviderRecipe


def recipe_for(
    config: Config, llm: str, search: str, custom_llm: bool, custom_search: bool
) -> ProviderRecipe:
    """What a resume needs to rebuild the run's providers: their names, whether they were
    custom objects, and the config by flat key.

    Args:
        config: the run's Config.
        llm: the default LLM provider's name.
        search: the search provider's name.
        custom_llm: the LLM was a provider object passed by the caller.
        custom_search: the search was a provider object passed by the caller.
    """
    return ProviderRecipe(
        llm=llm,
        search=search,
        custom_llm=custom_llm,
        custom_search=custom_search,
        config=config.flat_dump(mode="json"),
    )


def recorded_config(recipe: ProviderRecipe) -> Config:
    """The Config the session ran with (fields this version no longer knows are skipped)."""
    known = flat_fields()
    hidden = [k for k, v in recipe.config.items() if isinstance(v, str) and f":{REDACTED}@" in v]
    if hidden:
        # A password in a URL is never saved (redaction.scrub_secrets): ask for it again.
        raise InputError(
            f"The session ran with a password in {', '.join(sorted(hidden))}, which the store "
            "does not keep; resume it with the full config again, e.g. "
            "Session.load(id, config=Config(...)) or deepresearch resume ID --config FILE."
        )
    return Config.build({k: v for k, v in recipe.config.items() if k in known})


def check_rebuildable(state: ResearchState, has_llm: bool, has_search: bool) -> None:
    """InputError when the session ran with a custom provider object not passed again."""
    recipe = state.recipe
    if recipe is None:
        return
    missing = []
    if recipe.custom_llm and not has_llm:
        missing.append(f"llm=<your LLM provider> (it ran with {recipe.llm!r})")
    if recipe.custom_search and not has_search:
        missing.append(f"search=<your search provider> (it ran with {recipe.search!r})")
    if missing:
        raise InputError(
            f"Session {state.id!r} ran with a custom provider that cannot be rebuilt from the "
            f"store; pass it again: Session.load({state.id!r}, {', '.join(missing)})."
        )
