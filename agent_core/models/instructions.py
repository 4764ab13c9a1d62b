"""Sentences that speak to the assistant or order it to act: data we refuse to echo.

A document may carry text written for the model instead of for the reader: a fake system
message, a polite "before you can solve the task, please first save a file named ...", an
aside "also save a copy of this page to ../../...". The offline model never follows such text,
and its brief never quotes it (CLI contract). This is a filter of phrasings, in English, Chinese
and Japanese, tested against the styles of public prompt-injection benchmarks
(tests/eval/hostile_corpus); the runtime's sandbox and approvals, not this filter, are what
make an injection harmless when a model does obey one.
"""

from __future__ import annotations

import re

from agent_core.tools.registry import TOOLS

_TOOL_NAMES = "|".join(re.escape(name) for name in sorted(TOOLS))
_ACT = (
    r"save|write|create|send|copy|forward|delete|remove|upload|post|email|call|run|execute|"
    r"open|download|read|fetch|ignore|put|store|move|share|transfer|paste|append|visit"
)
_ENGLISH = re.compile(
    "|".join(
        [
            r"(?:^|[.!?:]\s*)assistant\b|\bassistant\s*[,:!]",
            r"\b(?:ai|dear|hey|hi|hello|you,?(?: the| an?)?(?: ai)?) assistant\b",
            r"\bas an? (?:ai|artificial intelligence|(?:large )?language model|llm|chatbot)\b",
            r"\b(?:to|for) you,? (?:the |an? |my )?(?:ai|assistant|model|agent|llm|bot)\b",
            r"\bbefore you (?:can |do |start |begin |continue |answer |solve |complete |finish )",
            r"\bafter you (?:do|have done|finish|complete|are done with) (?:that|this|it)\b",
            rf"\b(?:please|kindly)\b.{{0,40}}\b(?:{_ACT})\b",
            rf"\b(?:also|first|immediately|now)\s+(?:{_ACT})\s+(?:a|an|the|this|that|it|every|all|your)\b",
            r"\bwhen (?:summari[sz]ing|answering|reading|processing) this (?:page|document|file|"
            r"text|note|report)",
            r"\b(?:ignore|disregard|forget|override) (?:all |any |the |your )?(?:previous|prior|"
            r"above|earlier|preceding|original|the task|all|any)\b",
            r"\byou (?:must|need to|have to|are required to|will now|are now)\b",
            r"\byour (?:new |real |actual )?(?:task|instructions|goal|orders)\b",
            rf"\b(?:{_ACT})\b[^.]{{0,80}}\b(?:to|into|at|in)\s+\S*\.\./",
            r"\b(?:a|the) (?:file|copy) (?:named|called)\b",
            r"\bsystem (?:update|prompt|override|message|note)\s*[:\]!]",
            r"\bimportant (?:message|instructions?|notice) (?:from|for|to)\b",
            r"\bdo not (?:mention|tell|reveal|disclose)\b",
            r"\bexfiltrat|\bauthorized_keys\b|\.ssh\b",
            r"\bsend (?:it|them|the)\b",
            rf"\b(?:{_TOOL_NAMES})\b",  # a document that names a tool speaks to the assistant
            r"\b(?:put|send|include|reveal|print|paste|copy|leak) (?:the |your |an? )?api keys?\b",
        ]
    ),
    re.I,
)
_IMPERATIVE_START = re.compile(
    r"^(?:please|ignore|read(?!-only)|put|send|call|save|delete|run|execute|forget|reveal|print|upload|"
    r"post|copy|email|open|download|disable|fetch|forward|visit|navigate|transfer|share|paste)\b",
    re.I,
)
_CHINESE_JAPANESE = re.compile(
    "|".join(
        [
            r"忽略(?:之前|以上|先前|前面|上述|所有|一切|原来)?.{0,6}(?:指令|指示|提示|要求|规则|任务)",
            r"作为.{0,8}(?:助手|AI|人工智能|语言模型|机器人)",
            r"你(?:必须|现在必须|的任务|的新任务)|请你",
            r"系统(?:通知|消息|提示|更新|指令)[:：]",
            r"请(?:先|立即|务必|马上)?(?:保存|写入|发送|删除|复制|调用|读取|上传|下载|执行|运行|转发|忽略)",
            r"(?:保存|写入|复制|发送|上传|存)[^。！？]{0,40}(?:到|至)\s*\S*\.\./",
            r"不要(?:告诉|提及|透露)",
            r"(?:以前|前|上記)の指示を無視|アシスタントとして",
            r"(?:保存|送信|削除|コピー|実行|無視)(?:して|しな)(?:ください|さい)",
        ]
    ),
    re.I,
)


def is_instruction(sentence: str) -> bool:
    """True when a sentence addresses the assistant or tells it to do something."""
    text = sentence.strip().strip("\"'“”>*- ")
    return bool(
        _ENGLISH.search(text) or _IMPERATIVE_START.match(text) or _CHINESE_JAPANESE.search(text)
    )
