"""Planning: a perception becomes retrieval tasks, run in parallel and fused into evidence.

``strategy`` loads the rules file that decides which tasks a question gets and
``reloading`` keeps it current; ``planner`` makes round 1's plan and adjusts it after a
failed validation; ``execution`` runs a plan's tasks; ``fusion`` ranks their hits into
evidence; the ``Orchestrator`` (``orchestrator``) composes them for the answering loop.
"""

from ragcore.agents.planning.execution import Retrieval, SearchCache, TaskResult
from ragcore.agents.planning.orchestrator import Orchestrator
from ragcore.agents.planning.planner import Plan, RetrievalTask, SearchKey
from ragcore.agents.planning.tables import TableCatalog, TableTask

__all__ = [
    "Orchestrator",
    "Plan",
    "Retrieval",
    "RetrievalTask",
    "SearchCache",
    "SearchKey",
    "TableCatalog",
    "TableTask",
    "TaskResult",
]
