"""Where the work stands at the end of a stretch of conversation, judged only as far as the transcript proves it.

The offline summarizer must tell the next agent what is done, what is under way, what comes next and what is
still broken, without a model to judge. This module reads the turns (a user request and the agent's work up to
the next one) and decides only what the transcript shows: a turn whose last answer says "Done" or whose work was
committed is finished; a turn whose last answer asks a question waits for the user; a failed command that later
ran successfully, or whose turn ended finished, is resolved. What it cannot judge (what the user wants now, what
the agent meant to do next) the summarizer quotes instead, from :attr:`RegionState.latest_request` and
:attr:`RegionState.last_answer`.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace
from typing import Any

from ...accessors import content_text
from .facts import (EDIT_TOOLS, WRITE_TOOLS, Attempt, Facts, Refusal, constraint_sentences, directories_above,
                    is_patch_tool,
                    is_scratch, is_shell_tool, message_dicts, shell_command, tool_path)
from .clause import request_clause
from .decided import NARRATION, OWN_COURSE, decisions_in, table_row
from .gates import commit_gates
from .git_left import GitLeft, git_left
from .goal import (COMMAND_PREFIX, NUDGE_WORDS, Objective, approves, command_subject, go_ahead, objective, only_asks, sets_work, user_requests,
                   word_count)
from .rules import (accepted_proposal, acknowledged, answered_proposal, corrections, lasting, listed_decisions,
                    names_any, picked_option, plan_in_brief, replaced_names, said_on_declining, standing,
                    user_choices, whole_clause)
from .paths import PathNames, infer_cwd, is_redacted
from .pasted import own_words
from .labelled_options import picked_in_request, picked_labelled
from .agent_plans import approved_plan_decisions
from .plan_review import PlanUnderReview, plan_under_review
from .plans import PlanItems, open_plan_items
from .plan_left import plan_left, plan_request
from .batches import Batches, batches
from .redo import asks_redo, redo_left
from .steer import asks_agent
from .coordination import parallel_agents, task_order
from .edits_said import edits_said
from .delegated import delegated_work
from .reports import Report, open_reports, unaddressed_reviews
from .tasks import ACTIVE, TaskList, task_list
from .jobs import Background, awaited
from .subject import current_subject
from .restated import said_once
from .set_aside import set_aside
from .conflicts import resolutions
from .superseded import standing as superseded
from .shell import patch_effects, shell_effects
from .languages import LEFT_TO_DO, any_language
from .text import clip_words, sentences
from .explained import settled_by_words
from .chained import by_failing_part
from .errors import (action_label, command_key, open_and_resolved, turned_back, with_filtered_errors, with_stops,
                     without_cd, work_failure)

DONE, ASKED, INTERRUPTED, OPEN, DECLINED = "done", "asked", "interrupted", "open", "declined"
"""A turn's status: finished; ended on a question to the user; stopped by the user or an error; neither; ended on
a call the user declined (the user decides what comes instead)."""

_SLASH_COMMAND = re.compile(r"^/[\w:.-]*(?:\s|$)")
_DONE = re.compile(
    r"^\W{0,4}(?:(?:perfect|great|excellent|good|ok|okay|alright|yes)[!.,]?\s+)?(?:done|fixed|finished|complete[d]?"
    r"|all (?:done|set|good)|committed|implemented|changed|updated|added|restored|made|created|removed|converted"
    r"|ported|replaced|renamed|moved)\b"
    r"|(?:^|[.!]\s+)(?:done|fixed)[.!]"
    r"|\b(?:I've|I have|we've|we have) (?:now )?(?:ported|fixed|updated|added|changed|implemented|created|removed"
    r"|replaced|converted|restored|made|finished|completed|committed)\b"
    r"|\b(?:is|are|has been|have been|now) (?:done|fixed|complete|completed|committed|working|passing|in place)\b"
    r"|\b(?:everything|it) (?:is working|works|passes|builds successfully)\b|\ball (?:\w+ )?(?:tests|checks) pass"
    r"|^#+ *summary\b|✅",
    re.I | re.M,
)
_DONE_WORDS = re.compile(
    r"(?:完了(?:しました|です|。|！|!)|実装しました|修正しました|追加しました|対応しました|(?:すべて|全て|全)(?:の)?テスト(?:が)?通過"
    r"|已完成|完成了|已修复|已实现|已添加|(?:全部|所有)测试(?:都)?通过|완료(?:했습니다|되었습니다)|구현했습니다|수정했습니다)"
    r"|^\W{0,4}(?:pronto|feito|conclu[íi]d[oa]|implementad[oa]|corrigid[oa]|listo|hecho|completad[oa]|terminé|termin[ée]e?"
    r"|implémenté|corrigé|erledigt|fertig|implementiert|behoben)\b(?! (?:de|para|que|pour|zu|um)\b)"
    r"|\b(?:todos os testes (?:passa|passam|passaram)|todas las pruebas pasan|tous les tests passent"
    r"|alle tests (?:bestehen|laufen durch|sind grün))\b",
    re.I | re.M,
)
""":data:`_DONE` in the other languages users and agents write in: the same report of work finished (a Japanese
"…完了です", a Portuguese "Pronto!", a Spanish "Listo."), read by word, not by a sample's sentence. Words that
only open a sentence about what comes ("pronto para…", "fertig zu…") are left out."""
_NEXT = re.compile(
    r"\b(?:next (?:is|up|step|steps|would be|I'll|I will|we)|next,|next:|shall I|should I|want me to|would you like"
    r"|do you want|remaining|still (?:need|to do)|left to do|then we|after that)\b|" + any_language(LEFT_TO_DO),
    re.I,
)
_NEW_APPROACH = re.compile(
    r"\b(?:instead|rather than|(?:a |an )?(?:different|another|alternative|simpler) (?:approach|way|route)"
    r"|work ?around|fall(?:ing)? back (?:to|on)|switch(?:ing)? to|manually|by hand)\b",
    re.I,
)
"""Words that name a way of doing the work taken in place of another."""
_BLOCKER = re.compile(
    r"\b(?:can'?t|cannot|could ?n'?t|unable to|failed|fails|blocked|denied|permissions?|not (?:available|installed"
    r"|found|supported|allowed|permitted|possible)|does ?n'?t (?:exist|work|support)|is ?n'?t (?:available|installed"
    r"|supported|possible)|there(?:'s| is) no)\b",
    re.I,
)
"""Words saying the way tried first is closed: what makes a new approach a change of course."""
_TACTIC = re.compile(r"\b(?:let me|let's|i'll|i will|now)\s+(?:(?:just|first|also)\s+)?(?:check|look|read|search|find"
                     r"|see|try|inspect|verify|investigate|examine|explore|grep|list|run|wait|debug)\b", re.I)
"""A next look or try ("Let me search for it instead."): a step of the investigation, no change of approach."""
_CAUSE = re.compile(r"^\W{0,3}(?:since|because|as)\b", re.I)
_LEAD_IN = re.compile(r"^\W{0,3}(?:let me|let's|i'll|i will|i should(?: just)?|we(?:'ll| will| should))\s+", re.I)
_APPROACH_CHARS = 50
"""A change of approach shorter than this ("Using grep instead.") swaps a tool, it sets no course."""
_RECENT = 12
"""A failure this many messages before the agent's words is what they answer."""
_TROUBLE = re.compile(
    r"\b(?:still (?:fail\w*|broken|erroring|an? (?:error|issue|problem))|(?:could ?n[o']t|unable to|can ?n[o']t|failed to)"
    r" \w+|(?:does ?n[o']t|is ?n[o']t|not) (?:work\w*|pass\w*|compil\w*|build\w*)|oh wait|hmm\b|wait,|the (?:problem|issue) is"
    r"|(?:errors?|failures?) (?:remain|persist|look like|seem)|blocked|let me (?:check|look|try|fix|see|investigate)"
    r"|i(?:'ll| will) (?:now |next )?(?:check|look|try|fix|investigate|continue))\b",
    re.I,
)
"""Words of an agent that stopped with the work not done: something still fails, or it announced more."""
_STEERING = re.compile(r"\b(?:more questions|move (?:on|to the next)|next (?:area|topic|section|question)|are we done)\b",
                       re.I)
"""A question about where the conversation goes next, not about the work: its answer decides nothing."""
_ANNOUNCES = re.compile(
    r"^\W{0,3}(?:(?:now|next|then|first|so|ok(?:ay)?|alright|sure|got it|right)[,.!]?\s{1,3}){0,2}"
    r"(?:let me|let's|(?:i|we)(?:'ll|'m going to|'re going to|\s{1,3}(?:(?:also|still|now|first|then|just|next)\s{1,3})?"
    r"(?:will|need to|have to|must|am going to|are going to)))\s{1,3}(?!know\b|be (?:happy|glad)\b)\w", re.I)
"""Last words that announce the agent's next action ("Now I'll …", "OK, now I need to …", "Next I'm going to …"):
it stopped before doing it. A closing that hands back ("Let me know if …", "I'll be happy to …") announces
nothing."""
_ACKNOWLEDGES = re.compile(r"^\W{0,3}(?:sure(?: thing)?|ok(?:ay)?|on it|got it|will do|understood|right away|certainly"
                           r"|absolutely|of course|no problem|alright|roger|yes|yep)\b\W{0,3}$", re.I)
"""A sentence that only takes a request on ("On it.", "Sure!", "Got it."), saying nothing of work done."""
_ACK_CHARS = 120
_REJECTION = re.compile(r"^\W{0,3}(?:no\b|nope|wrong|not quite|that'?s (?:not|wrong|horrible|bad)|revert|undo"
                        r"|actually\b|you fucked|wtf)", re.I)
_NAMES_OPTION = re.compile(r"\b(?:option|choice|approach)\s{1,3}\w{1,2}\b"
                           r"|\b(?:go with|go for|pick|choose|take)\s{1,3}(?:the\s{1,3})?\w{1,2}\W{0,3}$", re.I)
"""A choice that names an option by its key ("option 2", "lets go with c"): the pick above says it in full."""
_DRAWN = re.compile(r"[\u2500-\u259f]")
"""A line that starts with box-drawing characters (``╭ - 654274e make sure …``, a tree, a graph) is program output the
user pasted, not words of theirs."""
_QUESTION_TOOL = re.compile(r"question|ask_?user|user_?input|elicit", re.I)
"""A tool through which the user answers the agent's questions (as :mod:`.facts` tells them)."""
_COMMIT = re.compile(r"""\bgit\s+commit\b[^\n]{0,400}?\s-[a-zA-Z]*m\s*(?:"((?:[^"\\\n]|\\.){1,300})|'([^'\n]{1,300}))""")
UNNAMED_COMMIT = "a commit"
"""A commit whose message neither the command nor git's output gave: it finishes its turn, and says nothing in Done."""
_PRINTED_COMMIT = re.compile(r"^\[[^\]\s]{1,200}(?: \(root-commit\))? [0-9a-f]{7,40}\] ([^\n]{1,300})$", re.M)
"""The line ``git commit`` prints (``[main 1a2b3c4] fix: keep the cache bounded``): the subject as git took it,
whatever quoting or heredoc the command used."""
_NOW_CHARS = 160
"""The goal's "now" part is cut to this many characters (the request is quoted in full under Critical Context)."""
_AGREED_CHARS = 460
"""A proposal the user accepted is cut to this many characters: a plan's first items and the user's changes to it."""
_SHORT_ANSWER = 200
_PROPOSING_TEXTS = 3
"""A last answer shorter than this many characters is read with the agent's texts before it, this many in all."""
_GIT_MOVE = re.compile(r"\bgit\s+mv\b")
_ACTIONS = {"sed": "edited (sed)", "mv": "moved", "rm": "deleted", "cp": "copied over", "tee": "written",
            "touch": "touched", "git": "changed by git"}


@dataclass(frozen=True)
class Turn:
    """A user request and what the agent did about it, up to the next request."""

    request: str
    final_answer: str
    """The agent's last text in the turn (``""`` when it wrote none)."""
    status: str
    commits: tuple[str, ...]
    """Messages of the commits that succeeded in the turn."""
    decisions: tuple[str, ...]
    changed: tuple[str, ...] = ()
    """Files the turn changed and did not delete (relative to the working directory)."""
    checks: tuple[str, ...] = ()
    """Lines of the turn's successful checks that say they passed (``12 passed``), the last per command."""
    texts: tuple[str, ...] = ()
    """The agent's texts in the turn, in order (its words at each edit say what the edit did)."""
    ran: tuple[str, ...] = ()
    """The shell commands of the turn that succeeded (a deploy, a push, a migration the work waited on)."""
    reply: bool = False
    """The request answers the agent rather than setting work of its own: it answers the question the turn before
    ended on, accepts that turn's proposal or picks one of its options, or corrects that turn's unfinished work
    ("no, revert those changes, …"). The work it asks for serves the request before it."""


@dataclass(frozen=True)
class RegionState:
    """What a stretch of conversation proves about the state of the work."""

    goal: str
    """The current objective (:func:`.goal.objective`): the latest one the user stated, else the first request
    that asks for work, cut to a sentence or two."""
    goal_request: str
    turns: tuple[Turn, ...]
    latest_request: str
    """The last real request, verbatim (``""`` when the region has none)."""
    latest_status: str
    last_answer: str
    """The agent's last text in the region, verbatim."""
    next_steps: tuple[str, ...]
    """Sentences of the last answer that say what comes next."""
    open_errors: tuple[str, ...]
    resolved_errors: tuple[str, ...]
    modified: tuple[tuple[str, str], ...]
    """``(path, last action)``, paths relative to the working directory, in order of first change."""
    decisions: tuple[str, ...]
    succeeded: tuple[str, ...] = ()
    """Labels of the actions that succeeded (as error lines name them: a command in backticks, ``edit `path```)."""
    constraints: tuple[str, ...] = ()
    """The user's rules that still bind: lasting ones, those of requests not yet finished, the words the user said
    on declining a call; none that names a thing since replaced."""
    replaced: tuple[str, ...] = ()
    """Code-like names the region says were replaced or removed (an earlier summary's rules naming them lapse)."""
    goal_now: str = ""
    """The user's latest request that sets work (:func:`.goal.sets_work`; not a reply to the agent's question),
    when it is not the goal's own request: what the objective is now, in the user's words and language."""
    goal_stated: bool = False
    """The user stated the goal (or redirected the work) in this region: it replaces an earlier summary's goal."""
    declined: tuple[tuple[str, str], ...] = ()
    """``(call label, what the user said)`` of the calls the user declined, in order."""
    plan: PlanItems | None = None
    """The checklist file the agent changed last, with what is still unchecked (path relative to the cwd)."""
    tasks: TaskList | None = None
    """The task list the agent kept through its tools (``TodoWrite``, ``TaskCreate``, ``update_plan``)."""
    tasks_current: bool = False
    """The task list was last changed while the agent worked on the latest request (an older one may be stale)."""
    mid_work: str = ""
    """When the region ends while the agent was still working (calls after its last words, no hand-back): the
    label of its last command after those words (``"-"`` when it ran none)."""
    plan_left: str = ""
    """While the work under way carries out a plan the user wrote out in a request: the step naming its parts no
    call carried out (:func:`.plan_left.plan_left`)."""
    batches: Batches | None = None
    """The batch rhythm the work keeps (:func:`.batches.batches`): a rule, and the batch to finish or wait on."""
    mid_work_unread: bool = False
    """:attr:`mid_work` is the shell call the region ends on, its result not in the region (it was still running)."""
    subject: tuple[tuple[str, ...], ...] = ((), (), ())
    """``(files, code names, files read since)`` the latest turn's work ends on (:func:`.subject.current_subject`)."""
    work_errors: tuple[str, ...] = ()
    """The open errors a next step should fix: failures of commands or file changes (a failed read, search or web
    fetch is information not obtained, a call the harness turned back did nothing: no work item)."""
    gates: tuple[str, ...] = ()
    """The checks run before each commit or push (:func:`.gates.commit_gates`): the routine a next commit follows."""
    checked_since: tuple[str, ...] = ()
    """The commands (:func:`.errors.command_key`) that succeeded after the region's last file change: the checks
    the edits under way already passed (:func:`_checked_since_change`)."""
    pushed: bool = False
    """A ``git push`` of the region succeeded: the session publishes its commits."""
    git_left: GitLeft = GitLeft()
    """What git has not saved when the region ends (:func:`.git_left.git_left`): commits not pushed, edits not
    committed, a commit that failed, each as the step that finishes it."""
    pending_question: str = ""
    """The question the agent's question tool asks when the region ends before the user answered it."""
    plan_review: PlanUnderReview | None = None
    """The plan the user turned down and is still shaping with the agent (:func:`.plan_review.plan_under_review`)."""
    reports: tuple[Report, ...] = ()
    """Sub-agents' reports since the latest request that the agent has not acted on (:func:`.reports.open_reports`)."""
    open_reviews: tuple[str, ...] = ()
    """Earlier sub-agent reviews' findings no later change took up (:func:`.reports.unaddressed_reviews`)."""
    delegated: str = ""
    """The files finished sub-agents' reports say they wrote, as one Done item (:func:`.delegated.delegated_work`)."""
    redo_left: tuple[str, ...] = ()
    """When the latest request asks to redo the job before it and the redo is under way: the files the earlier run
    acted on that the redo has not reached yet (:func:`.redo.redo_left`)."""
    resumed: str = ""
    """When the latest request is a bare go-ahead (:func:`.goal.go_ahead`: "continue", "ok do it", "?") that answers
    no question: the earlier request it goes on with (it carries no task of its own)."""
    answers_question: str = ""
    """When the latest request is a bare go-ahead right after the agent asked a question: that question (the
    go-ahead answers it)."""
    edits_so_far: tuple[str, ...] = ()
    """When the latest request is unfinished: the agent's words at its edits for it that went through, what the
    code now is (:func:`.edits_said.edits_said`)."""
    coordination: tuple[str, ...] = ()
    """How the agent organised the work by its calls: the order it set between its tasks, the sub-agents it ran in
    parallel (:mod:`.coordination`)."""
    steered: str = ""
    """When the latest request only asks the agent about its course ("should you be following this guide?", "is
    that the right port?") while the request before it was unfinished, and the agent answered: the first sentence
    of its answer. :attr:`resumed` then holds that earlier request, which is still the work under way (the
    question steers it, it sets no work of its own)."""
    awaited: tuple[Background, ...] = ()
    """The sub-agents and commands the agent sent to the background that had not reported at the region's end
    (:func:`.jobs.awaited`)."""

    def settles(self, error_line: str) -> bool:
        """True when ``error_line`` (an earlier summary's open error) names an action that has since succeeded or
        whose error was resolved here."""
        label = error_line.split(" failed", 1)[0].strip()
        if label in self.succeeded or label in self.resolved_errors:
            return True
        command = label.strip("`").split()[:3]
        return label.startswith("`") and any(
            done.startswith("`") and done.strip("`").split()[:3] == command for done in self.succeeded)


# -- text helpers ---------------------------------------------------------------------------------------------


def is_slash_command(text: str) -> bool:
    """``/mode``, ``/compact focus on x``; not ``/Users/me/file.png what is this?``."""
    stripped = text.strip()
    return bool(_SLASH_COMMAND.match(stripped)) and "/" not in stripped.split(None, 1)[0][1:]


def is_substantive(text: str) -> bool:
    """A request that can state a goal: not a slash command, not a one- or two-word nudge ("continue", "sleep",
    "はい"), words counted in any script (:func:`.goal.word_count`: "テストを直して" is a request, not a nudge)."""
    return not is_slash_command(text) and word_count(text) >= NUDGE_WORDS and not go_ahead(text)


# -- turns ----------------------------------------------------------------------------------------------------


@dataclass
class _TurnDraft:
    request: str
    index: int
    answer: str = ""
    interrupted: bool = False
    commits: list[str] | None = None
    decisions: list[str] | None = None
    committed_at: int = -1
    """Where the last commit's result came."""
    called_at: int = -1
    """Where the last tool call was made."""
    answered_at: int = -1
    """Where the agent last wrote text."""
    handed_back: bool = False
    """The turn's last message is the agent's text with no call after it: the agent ended its turn."""
    request_decided: bool = False
    """The request accepted the previous answer's proposal or picked one of its options."""
    texts: list[str] | None = None
    """The agent's texts in the turn, in order (a proposal may come before the calls that end on a bare question)."""
    turned_at: list[int] | None = None
    """Where the agent said it takes another way after a failure of the turn (:func:`_changes_of_approach`)."""
    asked_aside: str = ""
    """A question to the user the agent handed back on when something no request of the user's came next (a
    sub-agent's notification, a command's output): the agent's words after it answer that, not the question."""

    def proposing(self) -> str:
        """What the user replies to: the last answer, with the texts before it when it is only a short question
        ("Shall I proceed?" after a plan written out, then a plan file written)."""
        if len(self.answer) > _SHORT_ANSWER or not self.texts:
            return self.answer
        return "\n\n".join(self.texts[-_PROPOSING_TEXTS:])

    def went_on_after_commit(self) -> bool:
        """The agent kept working after its last commit and had not stopped to report (a release goes on to tag and
        publish): a call after its last words, or last words that announce more (``Let me check …:``)."""
        if self.called_at < self.committed_at:
            return False
        return self.called_at > self.answered_at or self.answer.rstrip().endswith(":")


def _commit_message(command: str) -> str:
    match = _COMMIT.search(command[:4000])
    if not match:
        return UNNAMED_COMMIT if re.search(r"\bgit\s+commit\b", command) else ""
    message = (match.group(1) or match.group(2) or "").replace('\\"', '"')
    if message.lstrip().startswith("$(cat <<"):  # -m "$(cat <<'EOF' … EOF)": the message is the heredoc's body
        body = command[match.end():].split("\n")
        message = next((line.strip() for line in body if line.strip()), UNNAMED_COMMIT)
    return clip_words(message, 160)


def answered_question(question: str, answer: str) -> str:
    """A question the user answered, as a decision. The answer is the decision, so it is kept whole (up to 160
    characters) and the question cut to the room left: "the user chose “Keep…”" said nothing."""
    chosen = clip_words(answer, 160)
    room = max(60, 240 - len(chosen) - len("Asked “” — the user chose “”"))
    return f"Asked “{clip_words(question, room)}” — the user chose “{chosen}”"


_UNDOES = re.compile(r"\bgit\s{1,3}(?:revert\b|reset\s{1,3}--hard\b|checkout\s{1,3}(?:\S{1,80}\s{1,3})?--\s|restore\b)")
"""A command that takes committed or edited work back (``git revert``, ``git reset --hard``, ``git checkout --``)."""
_SAYS_UNDONE = re.compile(r"\b(?:reverted|reverting|rolled back|rolling back|undid|undone|backed out|backing out)\b", re.I)
_CONTENT = re.compile(r"[^\W\d_][\w-]{2,}")
_FILLER_WORDS = frozenset("""the and for but not was its can now all our use has had this that with from have will would
    then them they there what when which into also just more only some than very want need like does done your
    their these those here about after before because being other over same still where instead rather decided
    agreed proposed approved user chose reverted reverting rolled back undid undone again change changes""".split())
_SHARED_WORDS = 2


def _stems(text: str) -> set[str]:
    return {word[:5].lower() for word in _CONTENT.findall(text) if word.lower() not in _FILLER_WORDS}


_MOST_UNDONE = 40
"""The newest decisions checked for being undone: a summary shows the last ten, and checking every decision against
every message would make a region of n decisions quadratic."""


def _not_undone(decisions: list[str], messages: list[dict], attempts: tuple[Attempt, ...]) -> list[str]:
    """The decisions without those whose work the agent took back later in the region: a command that undoes work
    (:data:`_UNDOES`) succeeded after the decision was said, and the agent's words after it say what it undid
    ("the LRU change broke the tests, so I reverted it"), sharing :data:`_SHARED_WORDS` content words with the
    decision. A decision undone is no decision (the user's own reversals are :mod:`.superseded`'s)."""
    undone_at = sorted(a.index for a in attempts if is_shell_tool(a.tool) and not (a.failed or a.aborted)
                       and _UNDOES.search(a.target[:2000]))
    if not undone_at:
        return decisions
    said = [(n, content_text(m.get("content"))[:20_000]) for n, m in enumerate(messages) if m.get("role") == "assistant"]
    undoing = [(n, _stems(sentence)) for n, text in said if n > undone_at[0] for sentence in sentences(text)
               if _SAYS_UNDONE.search(sentence)]
    if not undoing:
        return decisions
    spaced = [(n, " ".join(text.split())) for n, text in said]
    older, newest = decisions[:-_MOST_UNDONE], decisions[-_MOST_UNDONE:]
    return older + [decision for decision in newest if not _undone(decision, spaced, undone_at, undoing)]


def _undone(decision: str, said: list[tuple[int, str]], undone_at: list[int],
            undoing: list[tuple[int, set[str]]]) -> bool:
    core = decision.split(": ", 1)[1] if re.match(r"[A-Z][\w ]{0,40}: ", decision) else decision
    probe = core[:60].rstrip("…")
    at = next((n for n, text in said if probe and probe in text), None)
    first = bisect_right(undone_at, at) if at is not None else len(undone_at)
    if first == len(undone_at):
        return False
    stems = _stems(core)
    return any(n > undone_at[first] and len(stems & words) >= _SHARED_WORDS for n, words in undoing)


def _changes_of_approach(text: str, after_failure: bool) -> list[str]:
    """The changes of course ``text`` reports: a sentence that names a way taken instead of another ("I'll have the
    agents return the text instead") after words saying the first way is closed ("The agents can't write files"),
    in the same sentence or the one before it, or after a command of the turn failed (then the sentence before it
    gives the reason, when there is one). Each as ``reason — so: new way``; a look or a try is no change."""
    found = [re.sub(r"^(?:[-*+•]\s+|\d+[.)]\s+)", "", s).strip() for s in sentences(text[:20_000])]
    stated = set(decisions_in(text))  # said as a decision already
    changes = []
    for at, sentence in enumerate(found):
        if (len(sentence) < _APPROACH_CHARS or len(sentence) > 400 or not _NEW_APPROACH.search(sentence)
                or sentence.endswith(("?", "？")) or sentence.startswith(("#", "|", "`")) or _TACTIC.search(sentence)
                or not OWN_COURSE.search(sentence) or re.search(r"\byou\b", sentence, re.I)
                or clip_words(sentence, 240) in stated):
            continue
        if _BLOCKER.search(sentence):
            changes.append(clip_words(sentence.rstrip(":"), 240))
            continue
        before = found[at - 1] if at else ""
        if not (_BLOCKER.search(before) or after_failure):
            continue
        way = _LEAD_IN.sub("", sentence.rstrip(":"), count=1)
        reason = before.rstrip(".:") if (_BLOCKER.search(before) or _CAUSE.match(before)) and not before.startswith(
            "#") and not before.endswith("?") and not NARRATION.match(before) else ""
        changes.append(clip_words(f"{reason} — so: {way}" if reason else way, 240))
    return changes


def _turns(messages: list[dict], attempts: tuple[Attempt, ...]) -> list[_TurnDraft]:
    turns: list[_TurnDraft] = []
    commits: dict[str, str] = {}  # tool call id -> commit message, until its result comes
    requests = dict(user_requests(messages))  # harness markup and injected instructions are not the user's
    replied = False  # the last message is the user's: a request, or answers given through a question tool
    for index, message in enumerate(messages):
        role = message.get("role")
        after_reply, replied = replied, role == "user" or (
            role == "toolResult" and bool(_QUESTION_TOOL.search(str(message.get("toolName") or ""))))
        if role == "user":
            text = requests.get(index, "")
            if text.strip() and not is_slash_command(text):
                turns.append(_TurnDraft(text, index, commits=[], decisions=listed_decisions(text)))
            elif turns and turns[-1].handed_back and not turns[-1].asked_aside and closing_question(turns[-1].answer):
                # a notice answers no question; the first one asked stands (the later ones reply to notices)
                turns[-1].asked_aside = closing_question(turns[-1].answer)
            continue
        if role not in ("assistant", "toolResult"):
            continue  # what a harness or an extension put in (a custom message, a summary) is no step of the agent's
        if not turns:
            turns.append(_TurnDraft("", -1, commits=[], decisions=[]))
        turn = turns[-1]
        turn.handed_back = False
        if role == "assistant":
            text = content_text(message.get("content")).strip()
            calls = isinstance(message.get("content"), list) and any(
                isinstance(b, dict) and b.get("type") == "toolCall" for b in message["content"])
            turn.handed_back = bool(text) and not calls and message.get("stopReason") not in ("aborted", "error")
            if text:
                turn.answer, turn.interrupted, turn.answered_at = text, False, index
                turn.texts = [*(turn.texts or []), text]
                turn.decisions += [d for d in [*decisions_in(text), *listed_decisions(text)] if d not in turn.decisions]
                failed = any(turn.index < a.index < index and a.index >= index - _RECENT and a.failed and not a.aborted
                             and not a.lookup for a in attempts)
                turned = _changes_of_approach(text, failed)
                turn.decisions += [c for c in turned if c not in turn.decisions]
                turn.turned_at = [*(turn.turned_at or []), index] if turned and failed else turn.turned_at
                turn.decisions += [c for c in corrections(text) if c not in turn.decisions]
                agreed = acknowledged(text) if after_reply else ""
                turn.decisions += [clip_words(f"Agreed with the user: {agreed}", 240)] if agreed else []
            if message.get("stopReason") in ("aborted", "error"):
                turn.interrupted = True
            for block in message.get("content") if isinstance(message.get("content"), list) else ():
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    turn.called_at = index
                    command = shell_command(block.get("name"), block.get("arguments")) or ""
                    if _commit_message(command) and isinstance(block.get("id"), str):
                        commits[block["id"]] = _commit_message(command)
        elif role == "toolResult" and isinstance(message.get("toolCallId"), str) and message["toolCallId"] in commits:
            printed = _PRINTED_COMMIT.search(content_text(message.get("content"), "\n")[:20_000])
            # git printing the commit proves it, though a later part of the command failed (``commit && push``)
            succeeded = bool(printed) or next((not a.failed for a in attempts if a.index == index), False)
            message_given = commits.pop(message["toolCallId"])
            turn.commits += [clip_words(printed.group(1), 160) if printed else message_given] if succeeded else []
            turn.committed_at = index if succeeded else turn.committed_at
    return turns


def reports_done(turn: Turn) -> bool:
    """True when ``turn`` committed, or its answer opens by saying the work is done ("Done: …", "I've added …",
    "完了しました"): a finish it reports, stronger than a hand-back that only reports no trouble."""
    answer = turn.final_answer.strip()[:400]
    return bool(turn.commits) or bool(answer and (_DONE.search(answer) or _DONE_WORDS.search(answer)))


def _status(turn: _TurnDraft, failed_last: bool) -> str:
    answer = turn.answer.strip()
    if answer and (_DONE.search(answer[:400]) or _DONE_WORDS.search(answer[:400])):
        return DONE  # even when the user stopped what came after the answer
    if turn.interrupted:
        return INTERRUPTED
    if turn.commits and not failed_last and not turn.went_on_after_commit():
        return DONE
    if closing_question(answer):
        return ASKED
    last = (sentences(answer) or [""])[-1]
    if turn.called_at < turn.index and _only_acknowledges(answer):
        return OPEN  # it took the request on and did nothing yet: the request is still to do
    if turn.handed_back and not failed_last and not _TROUBLE.search(" ".join(sentences(answer)[-3:])) \
            and not _ANNOUNCES.match(last):
        return DONE  # the agent answered and handed back, reporting no trouble: nothing of the request is left
    return OPEN


def _only_acknowledges(answer: str) -> bool:
    """``answer`` only takes the request on ("Sure, let me take a look.", "On it."): short, each sentence an
    acknowledgement or an announced move, none reporting anything."""
    said = sentences(answer)
    return bool(said) and len(answer) <= _ACK_CHARS and all(
        _ACKNOWLEDGES.match(sentence) or _ANNOUNCES.match(sentence) for sentence in said)


_ASKS_USER = re.compile(r"\b(?:you|your|I|we|me|us|shall|should|prefer|want|which|ok(?:ay)?|right)\b", re.I)
"""A question put to the user ("Which do you prefer?"), not one the agent answers itself ("What's left?")."""
_CLOSING_SENTENCES = 2
_CLOSING_CHARS = 160
"""What may follow the question an answer ends on: a closing ("Let me know and I'll finish it.", "I'd go with 2.")."""
_EMPHASIS = re.compile(r"^[*_>`\s]+")


def _unemphasized(sentence: str) -> str:
    """``sentence`` without the emphasis before it and the brackets or marks after its last word or question mark.
    (As one pattern, ``[^\\w?？]+$`` tried every run of marks against the end: quadratic in marks.)"""
    end = len(sentence)
    while end and not (sentence[end - 1].isalnum() or sentence[end - 1] in "_?？"):
        end -= 1
    return _EMPHASIS.sub("", sentence[:end], count=1)


def closing_question(answer: str) -> str:
    """The question ``answer`` ends on, its emphasis and brackets removed ("**Keep the evals/ directory?**"): its
    last sentence when that asks, or its last question to the user when no more than a short closing follows it
    ("Which do you prefer? I'd go with 2."); ``""`` when it ends on anything else."""
    found = sentences(answer[-4000:])
    for back in range(min(len(found), _CLOSING_SENTENCES + 1)):
        question = _unemphasized(found[-1 - back])
        if not question.endswith(("?", "？")):
            continue
        after = found[len(found) - back:]
        closing = len(" ".join(after)) <= _CLOSING_CHARS and not any(s.startswith(("#", "```", "|")) for s in after)
        return question if not after or (closing and _ASKS_USER.search(question)) else ""
    return ""


def pending_question(messages: list[dict]) -> str:
    """The questions (joined by " / ") of a question tool's call in the agent's last message that no result
    answers: the region ends while the agent waits on the user. ``""`` otherwise."""
    answered = {m.get("toolCallId") for m in messages if m.get("role") == "toolResult" and isinstance(
        m.get("toolCallId"), str)}
    last = next((m for m in reversed(messages) if m.get("role") in ("assistant", "user")), None)
    if not last or last.get("role") != "assistant" or not isinstance(last.get("content"), list):
        return ""
    for block in last["content"]:
        if isinstance(block, dict) and block.get("type") == "toolCall" and str(block.get("id")) not in answered \
                and _QUESTION_TOOL.search(str(block.get("name") or "")):
            asked = _asked_in(block.get("arguments"))
            if asked:
                return clip_words(" / ".join(asked), 300)
    return ""


def _asked_in(arguments: Any) -> list[str]:
    """The questions a question tool's arguments hold (``questions: [{question: …}]`` or ``question: …``)."""
    if not isinstance(arguments, dict):
        return []
    listed = arguments.get("questions")
    found = [item.get("question") for item in listed if isinstance(item, dict)] if isinstance(listed, list) else \
        [arguments.get("question")]
    return [" ".join(q.split()) for q in found if isinstance(q, str) and q.strip()]


_LOOKUP_TOOL = re.compile(r"^(?:read|read_?file|view|view_?file|grep|glob|search|find|list|ls|web_?fetch|web_?search"
                          r"|fetch)$", re.I)
"""A tool that only looks something up (a read, a search, a listing, a fetch)."""


def _declined_lookup(refused: Refusal) -> bool:
    """A declined call that only looked something up (a read, a listing, a search; a shell command that only
    inspects) with nothing said or only a question asked: no design was settled by it. What the user stated on
    declining ("isthissmart became validate", a rule) keeps it a decision."""
    stated = [s for s in sentences(refused.reason[:4000]) if not s.rstrip().endswith(("?", "？"))]
    if stated:
        return False
    return bool(_LOOKUP_TOOL.match(refused.tool.strip())) or (
        is_shell_tool(refused.tool) and shell_effects(refused.target).inspects_only)


def _refusal_line(refused: Refusal, names: PathNames) -> str:
    """A declined call as the user's decision: what was declined and, when they said, why."""
    label = action_label(Attempt(0, refused.tool, refused.target, False), names)
    reason = f": “{clip_words(refused.reason, 200)}”" if refused.reason else ""
    return f"The user declined {label} (not done){reason}"


@dataclass(frozen=True)
class _Files:
    """The region's files as every turn's effects ask about them, named once (per turn, naming them all made a
    region of n turns and n files quadratic)."""

    modified: frozenset[str]
    """As the tools named them (no directories)."""
    written: frozenset[str]
    gone: frozenset[str]

    @classmethod
    def of(cls, facts: Facts, names: PathNames) -> "_Files":
        files = frozenset(facts.modified_files)
        return cls(files, frozenset(names.name(path) for path in files),
                   frozenset(names.name(path) for path in facts.gone))


def _effects(attempts: list[Attempt], region: _Files, names: PathNames) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a turn's actions left: the files it changed that still exist, and its passing checks."""
    gone, files, written = region.gone, region.modified, region.written
    changed: dict[str, None] = {}
    for attempt in attempts:
        if attempt.failed or attempt.aborted:
            continue
        tool = attempt.tool.lower()
        paths = [attempt.target] if tool in WRITE_TOOLS | EDIT_TOOLS or is_patch_tool(tool) else \
            shell_effects(attempt.target, attempt.folder).writes if is_shell_tool(tool) else []
        changed.update((names.name(p), None) for p in paths if p and not is_scratch(p) and p in files)
    checks = {command_key(a.target): _check(a, written, names) for a in attempts if a.passed}
    return tuple(p for p in changed if p not in gone), tuple(dict.fromkeys(checks.values()))


def _check(attempt: Attempt, written: set[str], names: PathNames) -> str:
    """A passing check as a Done item says it: its result (``12 passed``), after the script it ran when the region
    wrote that script (``ran `scripts/e2e.sh`: 14 passed``): the result is the script's, not an earlier state's."""
    script = ran_script(attempt.target, written, names)
    return f"{RAN_SCRIPT}`{script}`: {attempt.passed}" if script else attempt.passed


RAN_SCRIPT = "ran "
"""How a check that ran a script of the region opens (:func:`.progress.done_item` lists it apart)."""
_INTERPRETERS = frozenset({"bash", "sh", "zsh", "python", "python3", "node", "bun", "deno", "ruby", "perl", "pwsh",
                           "powershell", "tsx", "ts-node", "uv", "run", "npx", "source", "."})


def ran_script(command: str, written: set[str], names: PathNames) -> str:
    """The file among ``written`` (the region's changed files) that ``command`` runs, as the program
    (``./scripts/e2e.sh``) or after its interpreter (``bash scripts/e2e.sh``, ``uv run scripts/x.py``); ``""``
    when it runs none."""
    words = without_cd(command)[0].split()[:4]
    for word in words:
        name = names.name(word.strip("'\""))
        if name in written:
            return name
        if word.rsplit("/", 1)[-1] not in _INTERPRETERS and not word.startswith("-"):
            return ""  # the program is something else: a file named further on is its argument
    return ""


# -- files ----------------------------------------------------------------------------------------------------


def _modified(attempts: tuple[Attempt, ...], facts: Facts, names: PathNames) -> list[tuple[str, str]]:
    """Each modified file (as ``facts`` lists them) with the last thing done to it."""
    wanted = {names.name(path) for path in facts.modified_files if not is_scratch(path)}
    actions: dict[str, str] = {}
    for attempt in attempts:
        tool = attempt.tool.lower()
        if attempt.refused or (attempt.failed and turned_back(attempt)):
            continue  # never happened (declined, or turned back by the harness before it ran)
        if tool in WRITE_TOOLS or tool in EDIT_TOOLS or (is_patch_tool(tool) and attempt.target):
            verb = "written" if tool in WRITE_TOOLS else "edited"  # (a patch's target: a file it changed)
            actions[names.name(attempt.target)] = verb if not attempt.failed else f"{verb[:-2] if verb == 'edited' else 'write'} failed"
        elif is_shell_tool(tool) and not attempt.failed:
            effects = shell_effects(attempt.target, attempt.folder)
            verb = next((_ACTIONS[p] for p in effects.programs if p in _ACTIONS), "changed by a command")
            for path in effects.writes:
                actions[names.name(path)] = verb
            moved = "mv" in effects.programs or bool(_GIT_MOVE.search(attempt.target))
            for path in effects.deletes:  # (`git rm`, `git mv` too: not "changed by git")
                actions[names.name(path)] = "moved" if moved else "deleted"
            for path in effects.writes if moved else ():  # where it went exists: not "moved" as the source is
                if path not in effects.deletes:
                    actions[names.name(path)] = "moved in"
    gone = {names.name(path) for path in facts.gone}
    listed: dict[str, str] = {}
    for path in dict.fromkeys(names.name(path) for path in facts.modified_files):
        if path not in wanted:
            continue
        if path in gone and actions.get(path) not in ("moved", "deleted"):
            # gone with the directory that held it: that directory is named once, its files' own actions are past
            # (or deleted by a command that failed after it: `rm old.ts && npm run build`)
            parent = next((parent for parent in directories_above(path) if parent in gone), "")
            path = parent or path
            actions[path] = "moved or deleted (a directory)" if parent else "deleted or moved"
        listed[path] = actions.get(path, "changed")
    return list(listed.items())


# -- the whole region -----------------------------------------------------------------------------------------


def region_state(messages: Any, facts: Facts, cwd: str = "") -> RegionState:
    """What ``messages`` (the region being summarized; ``facts`` are theirs) prove about the work."""
    listed = list(message_dicts(messages))
    known = [*facts.modified_files, *facts.read_files]
    if not cwd or not any(path.startswith(cwd.rstrip("/") + "/") for path in known if path.startswith("/")):
        cwd = infer_cwd(listed) or cwd  # a cwd no absolute path lies under is not where the work happened
    names = PathNames(cwd, known)
    # (a failed chain that says which part failed is its parts: those before it passed; chained.py)
    facts = replace(facts, attempts=by_failing_part(with_filtered_errors(listed, with_stops(listed, facts.attempts))))
    drafts = _turns(listed, facts.attempts)
    ends = [turn.index for turn in drafts[1:]] + [len(listed)]
    statuses = []
    # a failure the agent's words took as the outcome it wanted (a refused bad input) leaves nothing of the request
    said = settled_by_words(listed, facts.attempts)
    as_meant = {index for index, other in said.settled.items() if other is None}
    for turn, end in zip(drafts, ends):
        inside = [a for a in facts.attempts if turn.index < a.index < end]
        status = _status(turn, bool(inside) and inside[-1].failed and not inside[-1].aborted
                         and inside[-1].index not in as_meant)
        if inside and inside[-1].refused and inside[-1].index > turn.answered_at and status != DONE:
            status = DECLINED  # the user declined the agent's last call and has not said what instead
        statuses.append(status)
    in_flight = _call_without_result(listed)
    working = _working_at_end(drafts[-1], facts.attempts, names, in_flight) if drafts else ""
    if working and statuses[-1] == DONE:
        statuses[-1] = OPEN  # "All checks pass. Now let me read the review comments." and a call: not finished
    pending = pending_question(listed)
    if pending and statuses:
        statuses[-1], working = ASKED, ""  # the agent asked through its question tool: the user has the turn
    elif drafts and statuses[-1] == DONE and drafts[-1].asked_aside and not drafts[-1].commits:
        # the agent asked, then only notices came (its words since answer them): the question still waits
        statuses[-1], pending = ASKED, drafts[-1].asked_aside
    for number, turn in enumerate(drafts[:-1]):
        reply = drafts[number + 1].request.strip()
        if _REJECTION.match(reply):
            turn.decisions = []  # the user turned the proposal down
        picked = picked_labelled(turn.proposing(), reply)  # "2がいいかな。" for "**案2（…）:**" and the text under it
        agreed = "" if picked else accepted_proposal(turn.proposing(), reply)
        if picked or agreed:
            turn.decisions.append(picked or clip_words(f"Agreed with the user: {agreed}", _AGREED_CHARS))
            drafts[number + 1].request_decided = True
        elif embedded := picked_in_request(turn.proposing(), reply):  # "can you fix option 1" after a list
            turn.decisions.append(embedded)
        elif not _REJECTION.match(reply):
            answered = answered_proposal(turn.proposing(), reply)  # the plan, and the reply that settled it in its words
            turn.decisions += [clip_words(f"Proposed by the agent: {answered}", _AGREED_CHARS)] if answered else []
    for at, plan in approved_plan_decisions(listed):  # (agent_plans: the plan's title, then its choices)
        number = next((n for n in range(len(drafts) - 1, -1, -1) if drafts[n].index < at), None)
        if number is not None and plan and not (statuses[number] == DONE and drafts[number].commits):
            # (a plan carried out and committed in its turn is the Done items' now, no choice still to honour)
            drafts[number].decisions += plan
    for number, turn in enumerate(drafts):
        settled = " ".join(drafts[number - 1].decisions or ()) if number and turn.request_decided else ""
        turn.decisions += [clip_words(f"The user chose: {choice}", 240) for choice in user_choices(turn.request)
                           if not (settled and (_NAMES_OPTION.search(choice)  # said above, in full
                                                or clip_words(choice, 60).rstrip("…") in settled))]  # quoted there

    def settled_in_turn(index: int) -> bool:
        """The failure at ``index`` is history: its turn ended finished, or the agent said soon after it that it
        takes another way (then the failure is the reason of that decision, nothing left to fix)."""
        return any(turn.index < index < end and (status == DONE or any(index < at <= index + _RECENT
                                                                      for at in turn.turned_at or ()))
                   for turn, end, status in zip(drafts, ends, statuses))

    def reported(index: int) -> bool:
        """The agent's last words in the turn came after the failure at ``index`` (no call after them), or the user
        spoke again: what it found was told."""
        return any(turn.index < index < end and (turn.called_at < turn.answered_at > index or end < len(listed))
                   for turn, end in zip(drafts, ends))

    open_errors, resolved = open_and_resolved(facts.attempts, settled_in_turn, names, reported, listed, said)
    replies = _replies(drafts, statuses)
    ordered = sorted(facts.attempts, key=lambda attempt: attempt.index)  # (stable: the order of one message's)
    files, at = _Files.of(facts, names), [a.index for a in ordered]
    inside = [ordered[bisect_right(at, d.index):bisect_left(at, end)] for d, end in zip(drafts, ends)]
    turns = tuple(Turn(d.request, d.answer, s, tuple(d.commits or ()), tuple(d.decisions or ()),
                       *_effects(list(own), files, names), texts=tuple(d.texts or ()), reply=reply,
                       ran=tuple(a.target for a in own if is_shell_tool(a.tool) and not a.failed and not a.aborted))
                  for d, s, end, reply, own in zip(drafts, statuses, ends, replies, inside))
    real = [turn for turn in turns if turn.request.strip()]
    last_answer = next((turn.final_answer for turn in reversed(turns) if turn.final_answer), "")
    answers = {d.request for d, before in zip(drafts[1:], statuses) if before == ASKED}  # answers to its question
    aim = objective(_goal_requests(listed), is_substantive,
                    lambda r: r.startswith(COMMAND_PREFIX) or (sets_work(r) and r not in answers),
                    {d.request: "\n\n".join(d.texts[:2]) for d in drafts if d.texts})  # (the agent's first words)
    since = drafts[-1].index if drafts else -1
    work = [action_label(a, names) for a in facts.attempts if work_failure(a)]
    tasks = task_list(listed)
    plan = open_plan_items(listed, "\n".join(commit for turn in turns for commit in turn.commits))
    review = plan_under_review(listed, facts.attempts)
    rhythm = batches(listed)
    return RegionState(
        goal=aim.text if aim else "", goal_request=aim.request if aim else "", turns=turns, latest_request=real[-1].request.strip() if real else "",
        latest_status=turns[-1].status if turns else OPEN, last_answer=last_answer,
        next_steps=tuple(_next_steps(turns[-1].final_answer if turns else "")),
        open_errors=tuple(open_errors), resolved_errors=tuple(resolved),
        modified=tuple((path, action) for path, action in _modified(facts.attempts, facts, names)
                       if not is_redacted(path)),  # (no file a continuing agent can open: paths.is_redacted)
        decisions=tuple(said_once(set_aside(superseded(_not_undone([*dict.fromkeys([
            *resolutions(facts.attempts),  # the side each merge conflict took (first: the said ones outlast it)
            *(whole for turn in turns for d in turn.decisions if not table_row(d) and (whole := whole_clause(d))),
            *(_refusal_line(r, names) for r in facts.refusals
              if not (review and r.tool == review.tool)  # told as the plan under discussion
              and not _declined_lookup(r)),
            *(answered_question(q, a) for q, a in facts.answers if not _STEERING.search(q))])], listed,
            facts.attempts), listed), listed))),
        succeeded=tuple(dict.fromkeys(action_label(a, names) for a in facts.attempts if not a.failed)),
        plan=replace(plan, path=names.name(plan.path)) if plan else None,
        goal_stated=bool(aim and aim.stated),
        goal_now=_goal_now(turns, aim) or _tracker_now(tasks, since, real[-1].request if real else ""),
        batches=rhythm,
        plan_left=_plan_left(turns, facts) if turns and turns[-1].status in (OPEN, INTERRUPTED) else "",
        mid_work=working, mid_work_unread=bool(in_flight and working == action_label(in_flight, names)),
        pending_question=pending, subject=current_subject(listed, since, names.name), tasks=tasks, tasks_current=bool(tasks and tasks.updated_at > since),
        work_errors=tuple(e for e in open_errors if e.split(" failed", 1)[0] in work),
        constraints=tuple(superseded(_binding_rules(turns, facts), listed)) + ((rhythm.rule(),) if rhythm else ()), gates=tuple(commit_gates(facts.attempts)),
        checked_since=_checked_since_change(facts.attempts), pushed=any(
            not a.failed and is_shell_tool(a.tool) and _PUSH.search(a.target[:2000]) for a in facts.attempts),
        git_left=git_left(listed, facts.attempts, names.name, tuple(t.request for t in real),
                          bool(turns) and turns[-1].status in (OPEN, INTERRUPTED)),
        replaced=tuple(sorted(replaced_names([t.request for t in turns] + [t.final_answer for t in turns]))),
        declined=tuple((action_label(Attempt(0, r.tool, r.target, False), names), r.reason) for r in facts.refusals),
        plan_review=replace(review, plan_file=names.name(review.plan_file)) if review and review.plan_file else review,
        reports=open_reports(listed, facts.attempts), open_reviews=unaddressed_reviews(listed),
        delegated=delegated_work(listed, names.name),
        redo_left=tuple(_redo_left(drafts, statuses, facts.attempts, names, known)),
        edits_so_far=tuple(edits_said(listed, since) if turns and turns[-1].status in (OPEN, INTERRUPTED) else ()),
        coordination=tuple(line for line in (task_order(listed), parallel_agents(listed)) if line),
        awaited=tuple(_still_awaited(listed, since, turns[-1].final_answer if turns else "")), **_go_ahead_of(real),
    )


_WAITING = re.compile(r"\b(?:wait(?:ing)? (?:for|on)|still (?:running|working|pending)|not (?:back|done|finished)"
                      r" yet|once (?:they|it|the (?:agents?|jobs?|tasks?|runs?)) (?:finish|report|complete|are done|is done"
                      r"|come back|comes back))", re.I)
"""Words of the agent's that say it still waits on background work ("Still waiting on the third batch.")."""


def _still_awaited(messages: list[dict], since: int, answer: str) -> list[Background]:
    """The background work not reported (:func:`.jobs.awaited`) that is still the work's: launched for the latest
    request, or earlier while the agent's last answer says it still waits on it (work launched before requests the
    agent has since answered without a word of it is history, whatever became of it)."""
    found = awaited(messages)
    return [job for job in found if job.at > since] or (found if _WAITING.search(answer[-2000:]) else [])


_BARE_QUESTION_WORDS = 4
"""A closing question this short ("Which one?", "OK?") names nothing without the answer it closes."""


def _go_ahead_of(real: list[Turn]) -> dict[str, str]:
    """What a bare go-ahead the region ends on stands for (see :attr:`RegionState.resumed`): the question the agent
    ended the turn before on, which it answers, or the option of it the user picked ("go for B" is B's text); else
    the latest earlier request that is no go-ahead itself."""
    before = real[-2] if len(real) > 1 else None
    bare = bool(real) and go_ahead(real[-1].request)
    approved = bool(before and not bare and approves(real[-1].request, before.final_answer))  # "vale, adelante"
    picked = bool(before and not bare and picked_option(before.final_answer, real[-1].request))  # "go for B"
    if not (bare or approved or picked):
        return _steered_by_question(real)
    question = closing_question(before.final_answer) if before else ""
    if before and (before.status == ASKED or question or approved or picked):
        # the proposal it accepts says what ("Want me to proceed with this change?" points back to it)
        agreed = accepted_proposal(before.final_answer, real[-1].request) or (
            approved and accepted_proposal(before.final_answer, "yes"))  # words no list knows: a plain yes by form
        if not agreed and question and len(question.split()) <= _BARE_QUESTION_WORDS:
            brief = plan_in_brief(before.final_answer)  # "Which one?" names nothing: what it asks between
            question = f"{question} ({brief})" if brief else question
        return {"answers_question": clip_words(agreed or question or before.final_answer, 300)}
    earlier = next((t.request.strip() for t in reversed(real[:-1]) if not go_ahead(t.request)), "")
    return {"resumed": earlier}


_STEER_CHARS = 200
"""The agent's answer to a steering question is quoted up to this long: its first sentence says which way it went."""


def _steered_by_question(real: list[Turn]) -> dict[str, str]:
    """When the latest request asks the agent a question about its course (:func:`.steer.asks_agent`) while the
    request before it was unfinished (under way, interrupted, or a call of it declined) and the agent answered it:
    that earlier request as the work under way, and the answer's first sentence as how the question steered it.
    A question answered is no open work of its own; what it leads to is the earlier request, carried on."""
    if len(real) < 2 or not asks_agent(real[-1].request) or real[-2].status not in (OPEN, INTERRUPTED, DECLINED):
        return {}
    earlier = next((t.request.strip() for t in reversed(real[:-1])
                    if sets_work(t.request) and not go_ahead(t.request) and not asks_agent(t.request)), "")
    answer = next((text for text in real[-1].texts if text.strip()), "") or real[-1].final_answer
    said = sentences(answer.strip())
    if not earlier or not said:
        return {}
    return {"resumed": earlier, "steered": clip_words(said[0], _STEER_CHARS)}


def _redo_left(drafts: list[_TurnDraft], statuses: list[str], attempts: tuple[Attempt, ...], names: PathNames,
               known: list[str]) -> list[str]:
    """The files a redo under way has not reached (:func:`.redo.redo_left`): only while the latest request, one
    that asks to do the job before it again, is not finished."""
    if len(drafts) < 2 or statuses[-1] not in (OPEN, INTERRUPTED) or not asks_redo(drafts[-1].request):
        return []
    previous = [a for a in attempts if drafts[-2].index < a.index < drafts[-1].index]
    current = [a for a in attempts if a.index > drafts[-1].index]
    return redo_left(previous, current, names.name, {names.name(path) for path in known})


def _replies(drafts: list[_TurnDraft], statuses: list[str]) -> list[bool]:
    """Per turn, whether its request is a reply to the agent (see :attr:`Turn.reply`)."""
    return [number > 0 and (statuses[number - 1] == ASKED or turn.request_decided or (
        statuses[number - 1] != DONE and bool(_REJECTION.match(turn.request.strip()))))
        for number, turn in enumerate(drafts)]


def _plan_left(turns: tuple[Turn, ...], facts: Facts) -> str:
    """See :attr:`RegionState.plan_left`: the plan is the latest request that sets work (a "continue" after it goes
    on with it), when it writes one out."""
    latest = next((turn.request for turn in reversed(turns) if sets_work(turn.request)), "")
    plan = (plan_request([latest]) if latest else "") or facts.approved_plan  # (a pasted plan, else the agent's)
    ran = [a.target for a in facts.attempts if is_shell_tool(a.tool) and not a.aborted]
    return plan_left(plan, list(facts.modified_files), ran) if plan else ""


_PUSH = re.compile(r"\bgit\s{1,4}(?:-C\s{1,4}\S{1,300}\s{1,4})?push\b")


def _checked_since_change(attempts: tuple[Attempt, ...]) -> tuple[str, ...]:
    """The shell commands that succeeded after the last file change (an edit, a write, a command that writes a file),
    as :func:`.errors.command_key` gives them; ``()`` when the region changed no file or checked nothing since."""
    checked: list[str] = []
    changed = False
    for attempt in attempts:
        if attempt.failed or attempt.aborted:
            continue
        tool = attempt.tool.lower()
        if tool in EDIT_TOOLS or tool in WRITE_TOOLS or tool == "apply_patch" or (
                is_shell_tool(tool) and not attempt.lookup and shell_effects(attempt.target[:2000]).writes):
            checked, changed = [], True
        elif is_shell_tool(tool) and not attempt.lookup:
            checked.append(command_key(attempt.target[:2000]))
    return tuple(checked) if changed else ()


def _call_without_result(messages: list[dict]) -> Attempt | None:
    """The last shell call or file change of the agent's message the region ends on, when no result of it follows
    (the region was cut while it ran): the command whose outcome the agent had not read, the work under way."""
    last = messages[-1] if messages else {}
    blocks = last.get("content") if last.get("role") == "assistant" else None
    calls = [block for block in blocks if isinstance(block, dict) and block.get("type") == "toolCall"] \
        if isinstance(blocks, list) else []
    if not calls:
        return None
    name, arguments = str(calls[-1].get("name")), calls[-1].get("arguments")
    target = shell_command(name, arguments) or _changing(name, arguments)
    return Attempt(len(messages) - 1, name, target, False) if target else None


def _changing(name: str, arguments: Any) -> str:
    """The file a file-changing call (an edit, a write, Codex's ``apply_patch``) works on, ``""`` for another call:
    cut before its result, it is the change under way, not yet in the file list."""
    if name.lower() in EDIT_TOOLS | WRITE_TOOLS:
        return tool_path(arguments)
    patch = arguments.get("input") if name == "apply_patch" and isinstance(arguments, dict) else None
    return next(iter(patch_effects(patch).writes), "") if isinstance(patch, str) else ""


def _working_at_end(last: _TurnDraft, attempts: tuple[Attempt, ...], names: PathNames,
                    in_flight: Attempt | None = None) -> str:
    """See :attr:`RegionState.mid_work`: ``""`` when the agent handed back (or the user stopped it); the shell call
    still running when the region ends (``in_flight``) comes before the commands that returned."""
    if last.handed_back or last.interrupted or last.called_at < max(last.answered_at, 0):
        return ""
    if in_flight is not None and in_flight.index >= last.answered_at:
        return action_label(in_flight, names)
    # a command (a check, a merge, a push) says what was under way; a file change is in the file list already
    work = [a for a in attempts if a.index > last.answered_at and not a.aborted and is_shell_tool(a.tool)]
    if work and not work[-1].failed and _commit_message(work[-1].target):
        return ""  # the work after its last words ended in a commit: what it announced is done
    return action_label(work[-1], names) if work else "-"


def _tracker_now(tasks: TaskList | None, since: int, latest: str) -> str:
    """What the work is now when the user's latest request only moves it on ("continue", "next") and the agent
    took up an item of an outside tracker for it (``bd update proj-7 --status in_progress``): that item, which
    the request's words do not name."""
    if tasks is None or tasks.updated_at <= since or sets_work(latest.strip()):
        return ""
    current = next((task for task in tasks.entries(ACTIVE) if task.tracked), None)
    return clip_words(f"the tracker's item {current.text}", _NOW_CHARS) if current else ""


def _goal_now(turns: tuple[Turn, ...], aim: Objective | None) -> str:
    """See :attr:`RegionState.goal_now`: the latest request that sets work, not a reply to the agent (an answer to
    its question, an acceptance of its proposal, a correction: :attr:`Turn.reply`) nor a correction ("no, …",
    "actually, …"), that came after finished work or is the one under way, and that the agent worked on (changed
    files or committed) unless it is the last. A question the agent answered and the user replied to with work of
    its own ("why is there a .js copy of each file?" … "put them into a build folder instead") gives that reply."""
    worked = False  # the turns after this one that replied to the agent did work for it
    for number in range(len(turns) - 1, -1, -1):
        turn, request = turns[number], turns[number].request.strip()
        worked = worked or bool(turn.changed or turn.commits) or number == len(turns) - 1
        answer = turns[number + 1].request.strip() if number + 1 < len(turns) and turns[number + 1].reply else ""
        answered = request.endswith(("?", "？")) and sets_work(answer) and not _REJECTION.match(answer)
        if turn.reply or (only_asks(request) and not answered):
            continue  # its work is the request's it replies about; a question is answered, it sets no objective
        if (request and sets_work(request) and not _REJECTION.match(request) and not is_slash_command(request)
                and worked):
            if aim and (request == aim.request.strip() or aim.text in request):
                return ""
            if answered:
                return request_clause(answer, _NOW_CHARS)  # the question was answered: the user's reply set the work
            # (a command run bare: what the agent took up under it, "PR #23, which conflicts")
            return command_subject(request, "\n\n".join(turn.texts[:2])) or request_clause(request, _NOW_CHARS)
        worked = False
    return ""


def _goal_requests(messages: list[dict]) -> list[str]:
    """The user's requests in order, a namespaced command they ran (``/gsd:discuss-phase 14``) among them: it names
    the task that the conversation after it works on."""
    return [words for _, words in user_requests(messages) if not is_slash_command(words)]


def _replaced_after(turns: tuple[Turn, ...]) -> list[set[str]]:
    """For each turn, the names the turns after it say were replaced (:func:`.rules.replaced_names`): each turn's
    words read once, from the last turn back (read again for every earlier turn, n turns were quadratic)."""
    after: list[set[str]] = [set()]
    for turn in reversed(turns[1:]):
        said = replaced_names([turn.request, turn.final_answer])
        after.append(after[-1] | said if said else after[-1])
    return after[::-1]


def _binding_rules(turns: tuple[Turn, ...], facts: Facts) -> list[str]:
    """The rules that still bind at the region's end (see :attr:`RegionState.constraints`)."""
    kept: dict[str, None] = {}
    replaced_after = _replaced_after(turns)
    for number, turn in enumerate(turns):
        gone = replaced_after[number]
        # a request is history once finished, or once the user moved on to other work that was finished since
        finished = number < len(turns) - 1 and (turn.status == DONE or any(
            t.status == DONE and not t.reply and sets_work(t.request) for t in turns[number + 1 :]))
        answered = turns[number - 1].final_answer if number else ""  # what the user may be quoting
        given = not sets_work(turn.request)  # a message that only gives rules ("Remember that …") wants them kept
        for rule in constraint_sentences(own_words(turn.request), answered):
            binds = lasting(rule) or not finished or (given and standing(rule))
            if binds and not names_any(rule, gone) and not _DRAWN.match(rule):
                kept[rule] = None
    kept.update(dict.fromkeys(constraint_sentences(facts.approved_plan)))  # (the agent's plan the user approved)
    for refused in facts.refusals:  # (facts.constraints holds them whole, and a skill's injected rules: not read)
        kept.update((clip_words(rule, 300), None) for rule in said_on_declining(refused.reason))
    return list(kept)


_LIST_INTRO = re.compile(r"\W*(?:next steps?|remaining|todo|still to do)\b", re.I)


def _announces_list(line: str) -> bool:
    """``Next steps:`` and the like: the keyword first, and a colon among the non-word characters that end the
    line. (As one pattern, ``.*:\\W*$`` tried every colon against the rest of the line: quadratic in colons.)"""
    start = _LIST_INTRO.match(line)
    if not start:
        return False
    end = len(line)
    while end > start.end() and not (line[end - 1].isalnum() or line[end - 1] == "_"):
        end -= 1
    return ":" in line[end:]


_NOT_OURS = re.compile(r"\b(?:not (?:mine|ours|yours|from|part of|related to|ours to)|unrelated|pre-?existing"
                       r"|(?:someone|somebody) else'?s|belong(?:s|ing)? to (?:someone|somebody|another|other)\b)",
                       re.I)
"""What remains because it is not the agent's work: files or commands that come from elsewhere or belong to someone
else ("Remaining in `~/.claude/commands/` are personal commands, not from this repo: …") — a report of state, no
step. Only the words that say whose it is: "Remaining: add personal access token support" is work, and so is what
was "not changed" yet."""


def _next_steps(answer: str) -> list[str]:
    """What the last answer says comes next: its sentences that announce a step, or the list under "Next steps:";
    never what it says remains that is not the agent's to do (:data:`_NOT_OURS`), nor a table's row (a "Next steps"
    column's header is no step; a status table's rows are read by :mod:`.steps`)."""
    lines = answer.splitlines()
    for number, line in enumerate(lines):
        if _announces_list(line.strip()) and not _NOT_OURS.search(line):
            items = []
            for item in lines[number + 1 :]:
                marker = re.match(r"^\s*(?:[-*+•]|\d+[.)])\s+(.*)", item)
                if not marker:
                    break
                items.append(clip_words(marker.group(1), 240))
            if items:
                return items[:6]
    return [clip_words(s, 300) for s in sentences(answer)
            if _NEXT.search(s) and not s.startswith(("#", "|")) and not _NOT_OURS.search(s)][-3:]
