"""Each ruleset's own modules, one package per ruleset; only the registry imports them."""
