"""Role routing: which models answer a role, in which order (``Config.role_models`` along
the role's chain in :data:`deepresearch.roles.ROUTES`, then the default model), with
which temperature and output limit. Providers are built lazily and cached by spec."""

from __future__ import annotations

from collections.abc import Callable

from deepresearch.config import Config
from deepresearch.errors import ProviderSetupError, ProviderUnavailableError
from deepresearch.providers.base import LLMProvider
from deepresearch.roles.spec import ROUTES
from deepresearch.state import AgentRole

ProviderFactory = Callable[[str], LLMProvider]


def _key_env(vendor: str) -> str:
    return {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}.get(vendor, "")


class ModelRouter:
    """Maps each role to an ordered chain of providers (built lazily, cached by spec)."""

    def __init__(
        self,
        config: Config,
        default: LLMProvider,
        factory: ProviderFactory,
        cheap_spec: Callable[[str], str | None] | None = None,
    ) -> None:
        self.config = config
        self.default = default
        self._factory = factory
        self._cheap_spec = cheap_spec
        self._cache: dict[str, LLMProvider] = {default.name: default}
        # Specs that proved unusable as configured (spec -> why), skipped from then on.
        self.unusable: dict[str, str] = {}
        self.announced: set[str] = set()  # fallbacks already announced, said once a run

    def specs(self, role: AgentRole) -> list[str]:
        """The model specs tried for ``role``, in order: the role's chain of ``role_models``
        (each with its ``role_fallbacks``), a cheap model for cheap roles, then the default.

        Args:
            role: the agent role asking.
        """
        cfg = self.config
        chain: list[str] = []
        routing = ROUTES[role]
        for key in routing.chain:
            spec = cfg.models.role_models.get(key)
            if spec:
                chain.append(spec)
                chain.extend(cfg.models.role_fallbacks.get(key, []))
        if not chain and routing.cheap and self._cheap_spec is not None:
            cheap = self._cheap_spec(self.default.name)
            if cheap:
                chain.append(cheap)
        chain.append(self.default.name)
        seen: set[str] = set()
        return [s for s in chain if not (s in seen or seen.add(s))]  # type: ignore[func-returns-value]

    def provider(self, spec: str) -> LLMProvider:
        """The provider for spec; one that cannot be built (no key, no SDK) is a setup error."""
        if spec not in self._cache:
            try:
                self._cache[spec] = self._factory(spec)
            except ProviderSetupError:
                raise
            except ProviderUnavailableError as exc:
                vendor = spec.partition(":")[0]
                raise ProviderSetupError(
                    str(exc), provider=spec, setting="role_models", env_var=_key_env(vendor)
                ) from exc
        return self._cache[spec]

    def temperature(self, role: AgentRole) -> float | None:
        """The sampling temperature for ``role``: ``role_temperature``, else the built-in default.

        Args:
            role: the agent role asking.
        """
        return self.config.models.role_temperature.get(role.value, ROUTES[role].temperature)

    def max_tokens(self, role: AgentRole) -> int | None:
        """The output-token limit for ``role``: ``role_max_tokens``, else the built-in default.

        Args:
            role: the agent role asking.
        """
        return self.config.models.role_max_tokens.get(role.value, ROUTES[role].max_tokens)
