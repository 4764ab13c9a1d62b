"""Who a brief is for, as the person said it: the one fact the offline model keeps in memory.

Only words that name readers count: "for a non-technical manager", "for executives", "for a
non-technical audience", "写给产品经理", "面向新入职的工程师". A question's topic is never an
audience, though it may follow "for" ("idempotency keys for side effects") or "面向"
("面向对象"): the phrase must end in a word for people (a role, a team, readers). A remembered
value is checked the same way before it shapes a brief, so a topic stored by an older version
is not stamped on later briefs.
"""

from __future__ import annotations

import re

# Words for people a brief may be written for (singular; a plural `s` is allowed after them).
_ROLE_WORDS = """
administrator admin analyst architect audience auditor beginner board boss ceo cfo cio
client colleague consultant coworker cto customer decision-maker designer developer
director engineer exec executive expert founder freshman hire intern investor journalist
lawyer layman layperson lead leader leadership learner manager marketer newbie newcomer
novice officer operator owner partner pm practitioner product-owner professor public
reader regulator researcher reviewer scientist staff stakeholder student supervisor team
teammate teacher tester user vp
"""
_ROLES = _ROLE_WORDS.split()
_ROLE = r"(?:" + "|".join(sorted(_ROLES, key=len, reverse=True)) + r")(?:e?s)?"
_LEAD = r"(?:an? |the |our |my |your |some )?"
_WORDS = r"(?:[a-z][a-z-]*\s+){0,3}?"  # a few words before the role ("busy product")
_EN = re.compile(
    r"\b(?:for|to|aimed at|targeted at|intended for|written for)\s+"
    + _LEAD
    + r"(?P<who>"
    + _WORDS
    + _ROLE
    # Where an audience ends: "for engineers who ..." is one, "for readers and writers" a topic.
    + r")(?=\s*(?:$|[.,;:!?)'\"]|(?:who|that|with|on|at|in|new to)\b))",
    re.I,
)
_EN_ROLE = re.compile(r"(?:^|[\s-])" + _ROLE + r"$", re.I)
# Chinese: a phrase after 写给 / 给…看 / 面向 / 针对 / 读者是 / 受众是, ending in a word for people.
_ZH_ROLE = (
    r"(?:产品经理|项目经理|经理|工程师|开发者|开发人员|程序员|管理层|管理者|高管|领导|老板|主管|总监"
    r"|客户|用户|新人|新手|初学者|小白|学生|老师|团队|同事|律师|审计师|审计员|设计师|投资人|投资者"
    r"|董事会|运维人员|运维|读者|受众|决策者|负责人|同学|员工|研究人员|分析师|测试人员)"
)
_ZH = re.compile(
    r"(?:写给|讲给|说给|给|面向|针对|读者是|受众是|对象是)(?P<who>[\u4e00-\u9fffA-Za-z]{0,12}?"
    + _ZH_ROLE
    + r")(?=$|[看读的，。？！、：；,.?!:;\s])"
)
_ZH_ROLE_END = re.compile(_ZH_ROLE + r"$")
MAX_CHARS = 80  # the remember_audience tool keeps at most this much


def audience_of(question: str) -> str | None:
    """The audience the question names, lower case; None when it names none."""
    for pattern in (_EN, _ZH):
        match = pattern.search(question)
        if match:
            who = " ".join(match.group("who").split()).lower()
            return who[:MAX_CHARS] or None
    return None


def is_audience(value: str) -> bool:
    """True when a remembered value names readers (not a topic a question was about)."""
    text = " ".join(value.split()).lower()
    return bool(text) and bool(_EN_ROLE.search(text) or _ZH_ROLE_END.search(text))
