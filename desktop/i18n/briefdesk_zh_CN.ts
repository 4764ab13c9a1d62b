<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AppContext</name>
    <message>
        <source>Your decision is recorded. Desk {desk} continues the run.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CentreTabs</name>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected run&apos;s timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every decision you owe, across runs (Ctrl+I)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inbox ({n})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DecisionNotices</name>
    <message>
        <source>BriefDesk: a question waits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent asks ({tool}): {text}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk: a decision waits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk: a decision expires soon</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool: {tool}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in BriefDesk</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InboxKeeper</name>
    <message>
        <source>approval of {tool} → {target}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an answer: {q}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> on desk {desk}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From another process{where}: “{question}” waits for {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ({n} new decisions in the inbox)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open its dialog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{question}” was decided and is ready to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InboxModel</name>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{d} d {h} h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{h} h {m:02d} min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{m} min {s:02d} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{s} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Desk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this desk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no expiry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires at {at}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revision {n} of this proposal</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InboxPanel</name>
    <message>
        <source>Every decision you owe, soonest expiry first. ↑↓ move · Enter opens · R rejects with a reason. Approve inside the dialog.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inbox: decisions you owe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing waits for you: no proposal or question is pending.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the selected decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open it in its dialog (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;ject…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject the selected proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject it, with a reason (R or Delete)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;Inbox</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RejectDialog</name>
    <message>
        <source>Reject this proposal — BriefDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject {tool} → {target}?
The run “{question}” ends cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rea&amp;son (required):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason for rejecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Say why: the reason is kept with the decision.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject with this reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel, keep it pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most {n} characters, please.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RevisionPart</name>
    <message>
        <source>Revision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes since the previous revision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revision {revision} — you asked: {note}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revision {revision} — {reviewer} asked: {note}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes since revision {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>revision {n} (sent back)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>revision {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Replaced:&lt;/b&gt; the agent answered with a new revision. Show it to read what changed; nothing is decided until you do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the newest version to read it; nothing is decided until you do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the new revision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the newest version</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
