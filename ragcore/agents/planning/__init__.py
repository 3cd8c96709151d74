"""Planning: a perception becomes retrieval tasks, run in parallel and fused into evidence.

``strategy`` loads the rules file that decides which tasks a question gets; the
``Orchestrator`` plans a round, runs its tasks, fuses their hits and adjusts the plan
after a failed validation.
"""

from ragcore.agents.planning.orchestrator import (
    Orchestrator,
    Plan,
    Retrieval,
    RetrievalTask,
    TaskResult,
)

__all__ = ["Orchestrator", "Plan", "Retrieval", "RetrievalTask", "TaskResult"]
