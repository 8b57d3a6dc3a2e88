"""DIS: disclosures a venue expects (limitations, compute, ethics), reported as information.

Venues differ in what they require, so each rule is meant to be switched off per venue in
`.auditex.toml`:

```toml
[rules]
ignore = ["DIS002"]   # this venue does not ask for compute resources
```
"""

from .missing_compute_resources import missing_compute_resources
from .missing_ethics_statement import missing_ethics_statement
from .missing_limitations import missing_limitations

__all__ = ["missing_compute_resources", "missing_ethics_statement", "missing_limitations"]
