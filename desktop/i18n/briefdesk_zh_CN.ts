<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>About</name>
    <message>
        <source>About BriefDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk runs a local research-brief agent with a checkpoint at every tool boundary, a person&apos;s approval before every risky action, and keys in the system keyring.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released under the MIT licence.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <translation>添加 MCP 服务器</translation>
    </message>
    <message>
        <source>lower case, e.g. time</source>
        <translation>小写，例如 time</translation>
    </message>
    <message>
        <source>Server name</source>
        <translation>服务器名称</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>e.g. uvx mcp-server-time</source>
        <translation>例如 uvx mcp-server-time</translation>
    </message>
    <message>
        <source>Command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <source>KEY=VALUE or KEY=keyring:NAME, one a line</source>
        <translation>KEY=VALUE 或 KEY=keyring:NAME，每行一个</translation>
    </message>
    <message>
        <source>Environment entries</source>
        <translation>环境变量条目</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Trust the server&apos;s read-only hints</source>
        <translation>信任服务器的只读提示</translation>
    </message>
    <message>
        <source>Then a tool the server calls read-only runs without asking; otherwise every tool of it asks for approval, as a write does.</source>
        <translation>这样，服务器标为只读的工具无需询问即可运行；否则它的每个工具都像写入一样需要审批。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>The command line has an unclosed quote.</source>
        <translation>命令行中有未闭合的引号。</translation>
    </message>
    <message>
        <source>Give the command that starts the server.</source>
        <translation>请填写启动该服务器的命令。</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Reconnected: runs now live in {store}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk cannot open its home folder, so it will close.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AppContext</name>
    <message>
        <source>The run failed. {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run succeeded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{run} is already running in this window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping at the next tool boundary…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your decision is recorded. Desk {desk} continues the run.</source>
        <translation>你的决定已记录。工位 {desk} 将继续该运行。</translation>
    </message>
</context>
<context>
    <name>AppearanceBox</name>
    <message>
        <source>Appearance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is set: it wins over this choice while it is set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notify me when a decision waits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A desktop notification when a proposal or a question waits and BriefDesk is not the active window, and a reminder shortly before a proposal expires. It only opens the proposal: nothing is decided from a notification.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The window&apos;s language changes at the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The language applies the next time BriefDesk starts.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApprovalActions</name>
    <message>
        <source>&amp;Edit…</source>
        <translation>修改(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Reject…</source>
        <translation>拒绝(&amp;R)…</translation>
    </message>
    <message>
        <source>Request c&amp;hanges…</source>
        <translation>要求修改(&amp;H)…</translation>
    </message>
    <message>
        <source>Send this proposal back with a note: nothing is written, the run goes on and the agent proposes again (a person decides again).</source>
        <translation>附上说明退回此提议：不写入任何内容，运行继续，智能体重新提议（仍由人来决定）。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Approve  (Ctrl+Shift+A)</source>
        <translation>批准  (Ctrl+Shift+A)</translation>
    </message>
    <message>
        <source>Why is this write refused? (required)</source>
        <translation>为什么拒绝这次写入？（必填）</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>理由：</translation>
    </message>
    <message>
        <source>Approve and remember</source>
        <translation>批准并记住</translation>
    </message>
    <message>
        <source>What should the agent change? (required)</source>
        <translation>智能体应修改什么？（必填）</translation>
    </message>
    <message>
        <source>Send back for changes</source>
        <translation>退回修改</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>说明：</translation>
    </message>
    <message>
        <source>Deciding as &lt;b&gt;{reviewer}&lt;/b&gt;</source>
        <translation>审阅者 &lt;b&gt;{reviewer}&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>ApprovalButtons</name>
    <message>
        <source>{caption} (in {seconds} s)</source>
        <translation>{caption}（{seconds} 秒后）</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>Approve edited</source>
        <translation>批准修改后的内容</translation>
    </message>
    <message>
        <source>Approve and remember</source>
        <translation>批准并记住</translation>
    </message>
    <message>
        <source>{caption} is enabled after {seconds} seconds, so that a key meant for another window never approves this write. Shortcut: {keys}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closes without deciding; enabled after {seconds} seconds (Escape closes at once).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes to the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The brief as it reads, with links to its sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposed content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments of the tool call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Path inside the artifacts folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edited content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope of the rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason for rejecting</source>
        <translation type="unfinished">拒绝理由</translation>
    </message>
    <message>
        <source>Note for the agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve this write ({keys}). It enables a moment after the proposal is shown, so that a key meant for another window never approves it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve, Approve edited or Approve and remember, once the read guard has passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close without deciding (also during the read guard)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message>
        <source>Approve a write — BriefDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the proposal…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the newest version</source>
        <translation type="unfinished">显示最新版本</translation>
    </message>
    <message>
        <source>{caption}:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>proposed content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(file removed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Arguments&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>current file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no file yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edited content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at {when}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApprovalEditPanel</name>
    <message>
        <source>Path inside the artifacts folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard edits</source>
        <translation>放弃修改</translation>
    </message>
    <message>
        <source>Approve edited  (Ctrl+Shift+A)</source>
        <translation>批准修改后的内容  (Ctrl+Shift+A)</translation>
    </message>
    <message>
        <source>the arguments are nested too deeply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the arguments must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApprovalText</name>
    <message>
        <source>this run only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every run in this home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished">工具</translation>
    </message>
    <message>
        <source>Risk tier</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arg hash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished">已过期</translation>
    </message>
    <message>
        <source>&lt;b&gt;Revert&lt;/b&gt; of {id}: remove the file it created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Revert&lt;/b&gt; of {id}: put the file back as it was</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;{tool}&lt;/b&gt; wants to create a new file — version {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;{tool}&lt;/b&gt; wants to overwrite an existing file — version {v}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;{tool}&lt;/b&gt; needs approval ({risk})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · proposed on &lt;b&gt;{desk}&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{state} (proposal v{v})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{run} ({status}): “{question}”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished">无</translation>
    </message>
    <message>
        <source>{n} source cited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} sources cited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Content:&lt;/b&gt; {bytes} bytes · {lines} lines · &lt;b&gt;{cited}&lt;/b&gt; ({listed})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the file on the proposing desk: its content was not kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no file yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file on the proposing desk, when proposed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>current file on disk (changed since the proposal)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>current file on disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> by &lt;b&gt;{who}&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (remembered rule {rule})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Expired&lt;/b&gt; at {when}: nobody decided in time, so it can no longer be approved and its run has ended.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Superseded&lt;/b&gt;{by} at {when}: an edit replaced it with a newer version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Already approved&lt;/b&gt;{by} at {when}{why}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Approved&lt;/b&gt;{by} and &lt;b&gt;executed&lt;/b&gt; at {ran}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Rejected&lt;/b&gt;{by} at {when}{why}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Sent back for changes&lt;/b&gt;{by} at {when}{why}: nothing was written; the agent proposes again when the run goes on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Closed&lt;/b&gt;: its run was cancelled{by} at {when} while it waited.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it has been deleted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it now exists (it did not when the write was proposed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it has different content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;The target changed on disk since this proposal was made:&lt;/b&gt; {what}. The diff below is against what is there now. Approving this proposal answers &lt;b&gt;target_changed&lt;/b&gt;; reject it, or Edit to propose it again against the current file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(nothing: this call has no target to remember)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve this write &lt;b&gt;and&lt;/b&gt; from now on allow &lt;b&gt;{rule}&lt;/b&gt;{which} without asking?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a new file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaces the existing file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ will write &lt;b&gt;{target}&lt;/b&gt; ({where})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ArtifactViewer</name>
    <message>
        <source>Reading {file}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Citations are links to the documents they cite.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{file} (read-only: no program on this system opens it); only its first {n} bytes are shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{file} (read-only: no program on this system opens it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{file} cannot be shown. {why}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ArtifactsPanel</name>
    <message>
        <source>✓ confirmed once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ duplicate write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✖ unexpected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… not checked yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writes seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Modified (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run&apos;s writes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whole folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run selected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run&apos;s writes: the files the selected run wrote (and any its watcher flagged).
Whole folder: every file in its artifacts folder, whichever run wrote it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished">打开</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the artifacts folder in the file manager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert this write…: propose putting the file back as it was before this run wrote it (or removing it, if the run created it). You decide in the approval dialog; nothing changes before.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh the list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Whole folder&lt;/b&gt;: {files} in &lt;code&gt;{folder}&lt;/code&gt;, whichever run wrote them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;This run&apos;s writes&lt;/b&gt;: {files} that &lt;b&gt;{run}&lt;/b&gt; wrote (or its watcher flagged) in &lt;code&gt;{folder}&lt;/code&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot list {folder}. {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path}
writes seen: {writes}
size: {size}
modified: {at} UTC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert this write?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Propose putting {file} back as it was before approval {id} wrote it?

The run waits for your decision in the approval dialog, which shows the change; nothing is written before you approve it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Propose revert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not reverted. {why}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AuditWindow</name>
    <message>
        <source>Audit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Who:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an entry to see it whole.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selected entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everyone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} decisions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} blocked action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} blocked actions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{decisions}, {blocks}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No entries match these filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing recorded yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the audit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported {n} entries to {path}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BriefTabs</name>
    <message>
        <source>Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Brief, with links to its sources</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CentreTabs</name>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>The selected run&apos;s timeline</source>
        <translation>所选运行的时间线</translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation>待办</translation>
    </message>
    <message>
        <source>Every decision you owe, across runs (Ctrl+I)</source>
        <translation>所有运行中等你做出的决定 (Ctrl+I)</translation>
    </message>
    <message>
        <source>Inbox ({n})</source>
        <translation>待办 ({n})</translation>
    </message>
</context>
<context>
    <name>CitationLinks</name>
    <message>
        <source>not found</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Confirm</name>
    <message>
        <source>This run is recorded as running on another computer, “{host}” (process {pid}), since {since}.

This computer cannot tell whether it still runs there. If it has stopped there (the computer was renamed, or BriefDesk was closed), take it over to continue it here from its last checkpoint, without repeating a side effect. If it still runs there, leave it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the run “{question}” ({run})?

Its timeline, checkpoints and approvals are removed for good. Files it wrote stay in the artifacts folder.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CoreWords</name>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished">已过期</translation>
    </message>
    <message>
        <source>superseded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>consumed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changes_requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting_approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting_input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acceptEdits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dangerouslySkipPermissions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>offline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scripted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compromised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answers a request for changes: the person decides again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dangerouslySkipPermissions asks for nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>acceptEdits approves writes inside the artifacts folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>writes a file: a person approves every write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reaches the network: a person approves it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved as edited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled by a person</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled while running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a write was rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every run in this home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{tool} of files under {folder}/ for {where}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{tier} tools never ask</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>remembered: {rule}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edited by {reviewer}: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A person asked to revert approval {id}: remove the file it created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A person asked to revert approval {id}: put back its content.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CorpusKeeper</name>
    <message>
        <source>Changes to the corpus folder are not followed: {why} Press Reindex after changing files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The corpus could not be indexed. {why}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CorpusPanel</name>
    <message>
        <source>needs a password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too large</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not indexed yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The corpus folder has no documents yet: put PDF, Word, OpenDocument, HTML, EPUB, RTF, Markdown or text files in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} indexed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} not indexed yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} document: {counts}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} documents: {counts}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No reason was recorded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the corpus…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reindex</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the corpus folder again for new and changed files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for new and changed files…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read {file}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finishing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{failed} — the other documents are not affected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not be read ({n})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CrashDemos</name>
    <message>
        <source>Crash demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Crash</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DecisionNotices</name>
    <message>
        <source>BriefDesk: a question waits</source>
        <translation>BriefDesk：有一个问题在等待</translation>
    </message>
    <message>
        <source>The agent asks ({tool}): {text}</source>
        <translation>智能体提问（{tool}）：{text}</translation>
    </message>
    <message>
        <source>BriefDesk: a decision waits</source>
        <translation>BriefDesk：有一个决定在等待</translation>
    </message>
    <message>
        <source>BriefDesk: a decision expires soon</source>
        <translation>BriefDesk：有一个决定即将过期</translation>
    </message>
    <message>
        <source>Tool: {tool}</source>
        <translation>工具：{tool}</translation>
    </message>
    <message>
        <source>Open in BriefDesk</source>
        <translation>在 BriefDesk 中打开</translation>
    </message>
</context>
<context>
    <name>DemoText</name>
    <message>
        <source>

Open BriefDesk again to see the interrupted run and resume it: no side effect is repeated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk resumes the selected interrupted run {question} (mode: {mode}) and kills itself (SIGKILL) at its next tool call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk starts the question in the box as a new run and kills itself (SIGKILL) at its first tool call.

Question: {question}
Mode: {mode}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk resumes the selected interrupted run {question} (mode: {mode}) and kills itself (SIGKILL) right after its brief is written, before the write is confirmed. If the write needs an approval, it waits for you as usual.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk starts the question in the box as a new run in mode {mode} (now shown in the Mode box): the brief is written without asking anyone. Right after the write, before it is confirmed, BriefDesk kills itself (SIGKILL).

Question: {question}
Mode: {mode}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>

{n} proposal waiting for a person still waits for you: this demo approves nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>

{n} proposals waiting for a person still wait for you: this demo approves nothing.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>⋯ {n} unchanged line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⋯ {n} unchanged lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} more rows not shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Identical: approving changes nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The proposed content is exactly what the file on disk holds ({n} line).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The proposed content is exactly what the file on disk holds ({n} lines).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>current file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>proposed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all unchanged lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new file: every line is added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{added} added &amp;nbsp;{removed} removed &amp;nbsp;&lt;i&gt;{note}&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Left:&lt;/b&gt; {old} &amp;nbsp;&amp;nbsp; &lt;b&gt;Right:&lt;/b&gt; {new}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EventText</name>
    <message>
        <source>Run started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resumed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crash found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval asked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval decided</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Artifact confirmed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unexpected write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished">问题</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint {boundary}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{m} min {s} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{text} ({n} chars)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} hits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} chars</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>truncated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{question}” · model {model} · mode {mode}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resumed from the latest checkpoint · model {model}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The previous process (pid {pid}) died mid-run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (by {who})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished: {status}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>final answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#{n} · next: {step}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes requested: {note}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not executed · </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approval needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{id} {status} by {who}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call {call} · key {key}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} files nobody approved were already in {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · written {n}×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn {turn} · attempt {attempt} failed: {reason} · next try in {wait}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>success</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>degraded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fallback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>provider_error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>settled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changes requested</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>Main window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval dialog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the {part}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{readme} (more in {docs})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documentation: {where}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No viewer could open the documentation. It is at {where}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts…</source>
        <translation>键盘快捷键(&amp;K)…</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;About BriefDesk</source>
        <translation>关于 BriefDesk(&amp;A)</translation>
    </message>
</context>
<context>
    <name>InboxKeeper</name>
    <message>
        <source>approval of {tool} → {target}</source>
        <translation>审批 {tool} → {target}</translation>
    </message>
    <message>
        <source>an answer: {q}</source>
        <translation>回答：{q}</translation>
    </message>
    <message>
        <source> on desk {desk}</source>
        <translation>（工位 {desk}）</translation>
    </message>
    <message>
        <source>From another process{where}: “{question}” waits for {what}</source>
        <translation>来自另一个进程{where}：“{question}”正在等待{what}</translation>
    </message>
    <message>
        <source> ({n} new decisions in the inbox)</source>
        <translation>（待办中有 {n} 个新决定）</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation>待办</translation>
    </message>
    <message>
        <source>Open its dialog</source>
        <translation>打开其对话框</translation>
    </message>
    <message>
        <source>Show the inbox</source>
        <translation>显示待办</translation>
    </message>
    <message>
        <source>“{question}” was decided and is ready to continue.</source>
        <translation>“{question}”已做出决定，可以继续。</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Rejected: {reason}</source>
        <translation>已拒绝：{reason}</translation>
    </message>
</context>
<context>
    <name>InboxModel</name>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>{d} d {h} h</source>
        <translation>{d} 天 {h} 小时</translation>
    </message>
    <message>
        <source>{h} h {m:02d} min</source>
        <translation>{h} 小时 {m:02d} 分</translation>
    </message>
    <message>
        <source>{m} min {s:02d} s</source>
        <translation>{m} 分 {s:02d} 秒</translation>
    </message>
    <message>
        <source>{s} s</source>
        <translation>{s} 秒</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Run question</source>
        <translation>运行的问题</translation>
    </message>
    <message>
        <source>Desk</source>
        <translation>工位</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>审批</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>this desk</source>
        <translation>本工位</translation>
    </message>
    <message>
        <source>no expiry</source>
        <translation>不过期</translation>
    </message>
    <message>
        <source>Expires at {at}</source>
        <translation>过期时间 {at}</translation>
    </message>
    <message>
        <source>Revision {n} of this proposal</source>
        <translation>此提议的第 {n} 版</translation>
    </message>
</context>
<context>
    <name>InboxPanel</name>
    <message>
        <source>Every decision you owe, soonest expiry first. ↑↓ move · Enter opens · R rejects with a reason. Approve inside the dialog.</source>
        <translation>所有等你做出的决定，最先过期的在前。↑↓ 移动 · Enter 打开 · R 附理由拒绝。批准请在对话框内进行。</translation>
    </message>
    <message>
        <source>Inbox: decisions you owe</source>
        <translation>待办：等你做出的决定</translation>
    </message>
    <message>
        <source>Nothing waits for you: no proposal or question is pending.</source>
        <translation>没有等你处理的事项：没有待决的提议或问题。</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open the selected decision</source>
        <translation>打开所选决定</translation>
    </message>
    <message>
        <source>Open it in its dialog (Enter)</source>
        <translation>在其对话框中打开 (Enter)</translation>
    </message>
    <message>
        <source>Re&amp;ject…</source>
        <translation>拒绝(&amp;J)…</translation>
    </message>
    <message>
        <source>Reject the selected proposal</source>
        <translation>拒绝所选提议</translation>
    </message>
    <message>
        <source>Reject it, with a reason (R or Delete)</source>
        <translation>附理由拒绝 (R 或 Delete)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run&apos;s artifacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The documents runs read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run question</source>
        <translation>运行问题(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <source>Res&amp;ume run</source>
        <translation>恢复运行(&amp;U)</translation>
    </message>
    <message>
        <source>Re&amp;view pending approval…</source>
        <translation>审阅待审批请求(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Delete finished run</source>
        <translation>删除已结束的运行(&amp;D)</translation>
    </message>
    <message>
        <source>Re&amp;view</source>
        <translation>审阅(&amp;V)</translation>
    </message>
    <message>
        <source>Remembered &amp;rules…</source>
        <translation>已记住的规则(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Audit log…</source>
        <translation>审计日志(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Inbox</source>
        <translation>待办(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>演示(&amp;D)</translation>
    </message>
    <message>
        <source>Crash at the next tool call</source>
        <translation>在下一次工具调用时崩溃</translation>
    </message>
    <message>
        <source>Crash after the write, before confirmation</source>
        <translation>写入之后、确认之前崩溃</translation>
    </message>
    <message>
        <source>Run with a compromised model</source>
        <translation>使用被攻破的模型运行</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Opening the home…</source>
        <translation>正在打开主目录…</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the timeline…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a run on the left, or press Run (Ctrl+Enter) to start one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No events yet: they appear here as the run goes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} pending approval</source>
        <translation>{n} 个待审批请求</translation>
    </message>
    <message>
        <source>{n} pending approvals</source>
        <translation>{n} 个待审批请求</translation>
    </message>
    <message>
        <source>● Agent working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>未选择运行</translation>
    </message>
    <message>
        <source>Type a question first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not started: Run was just pressed, or a window just opened. Press Run again to start another run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take over this run?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Take over and resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete this run?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
    <message>
        <source>read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>may change things</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>destructive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not destructive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idempotent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not idempotent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reaches outside</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>closed world</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools from Model Context Protocol servers on this desk. A server is started only to list its tools; environment values are never shown.</source>
        <translation>本工位上模型上下文协议（MCP）服务器提供的工具。只在列出工具时才启动服务器；环境变量的值从不显示。</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Hints</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Add an MCP server</source>
        <translation>添加 MCP 服务器</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <source>Remove the selected MCP server</source>
        <translation>移除所选 MCP 服务器</translation>
    </message>
    <message>
        <source>Show tools</source>
        <translation>显示工具</translation>
    </message>
    <message>
        <source>Show the selected server&apos;s tools</source>
        <translation>显示所选服务器的工具</translation>
    </message>
    <message>
        <source>MCP servers message</source>
        <translation>MCP 服务器消息</translation>
    </message>
    <message>
        <source>MCP tools</source>
        <translation>MCP 工具</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>模型中的名称</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>风险等级</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>trusted</source>
        <translation>已信任</translation>
    </message>
    <message>
        <source>not trusted</source>
        <translation>未信任</translation>
    </message>
    <message>
        <source>configured</source>
        <translation>已配置</translation>
    </message>
    <message>
        <source>Added the server “%1”.</source>
        <translation>已添加服务器“%1”。</translation>
    </message>
    <message>
        <source>Remove an MCP server</source>
        <translation>移除 MCP 服务器</translation>
    </message>
    <message>
        <source>Remove the MCP server “%1”? Its tier choices are removed too.</source>
        <translation>移除 MCP 服务器“%1”？其工具的风险等级设置也会一并移除。</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Removed the server “%1”.</source>
        <translation>已移除服务器“%1”。</translation>
    </message>
    <message>
        <source>Starting “%1” to list its tools…</source>
        <translation>正在启动“%1”以列出其工具…</translation>
    </message>
    <message numerus="yes">
        <source>“%1” has %n tool(s).</source>
        <translation>
            <numerusform>“%1”有 %n 个工具。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>started (%n tool(s))</source>
        <translation>
            <numerusform>已启动（%n 个工具）</numerusform>
        </translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>Tier of %1</source>
        <translation>%1 的风险等级</translation>
    </message>
    <message>
        <source>“%1” is now %2.</source>
        <translation>“%1”现在是 %2。</translation>
    </message>
</context>
<context>
    <name>PageViewer</name>
    <message>
        <source>{source}, page {page}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not found — {title}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in system viewer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{title}: not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The text the index holds of this page; the document itself is in {folder}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The text the index holds of this document; the document itself is in {folder}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No program on this system opens it: its text is shown here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder cannot be opened: {path}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PersonPrompts</name>
    <message>
        <source>“{question}” waits for approval of {tool} → {target}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review approval…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{question}” waits for an answer: {asked}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk needs you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve this action?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve</source>
        <translation type="unfinished">批准</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation type="unfinished">拒绝</translation>
    </message>
    <message>
        <source>Later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent asks</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlainErrors</name>
    <message>
        <source>That value is not valid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent asked for a tool that does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It no longer exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That path is outside the folder the agent may use.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing there is not allowed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The network is closed to the agent for that address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The proposal expired before anyone decided.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An edit replaced this proposal with a newer version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Someone already decided this proposal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file changed on disk since the proposal was made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another process is writing to that folder; nothing was written. Try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model asked for too many actions at once; none of them ran.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model asked for the same action twice; the second did not run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run was saved by another version and cannot continue here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another process is driving this run right now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run reached one of its limits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is busy in another process; try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The home folder cannot be written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database was made by a newer BriefDesk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system keyring cannot be used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No API key is stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run is not waiting for that any more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run has not finished yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model endpoint did not answer usefully.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A person already rejected this action.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This system cannot sandbox the agent&apos;s tools.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk is full; free some space, then resume.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database server cannot be reached.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Someone already answered this question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another desk is driving this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You are not allowed to decide this.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server could not be started, or it stopped answering.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool took too long to answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent runtime stopped unexpectedly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the connection was dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it took too long to answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such file or folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>that is a folder, not a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{error} BriefDesk keeps trying: this note goes away, and runs stopped by it continue, once the database answers again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong: {what}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong: {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the environment (BRIEFDESK_OPENAI_API_KEY)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Secret Service keyring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KDE Wallet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the macOS Keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Windows Credential Manager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the system keyring</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PricesBox</name>
    <message>
        <source>Input, $ per 1M tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output, $ per 1M tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prices (for a run&apos;s cost)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not set: the cost shows as unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The setting {key}; the offline model always costs 0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A run&apos;s usage shows its requests and tokens; with both prices set, a remote run shows its cost too. The offline model costs nothing.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QuestionDialog</name>
    <message>
        <source>The agent asks a question — BriefDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &lt;b&gt;{run}&lt;/b&gt; is waiting for your answer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer (Ctrl+Enter sends it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling ends the run; it cannot be resumed. Closing this window keeps it waiting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer later</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send answer  (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This question was settled elsewhere: the run is now {status}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Records</name>
    <message>
        <source>blocked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} (person)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rule {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>policy ({mode} mode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished">状态</translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished">工具</translation>
    </message>
    <message>
        <source>Folder (and everything under it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applies to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remembered by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Since</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run {run} only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every run in this home</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RejectDialog</name>
    <message>
        <source>Reject this proposal — BriefDesk</source>
        <translation>拒绝此提议 — BriefDesk</translation>
    </message>
    <message>
        <source>Reject {tool} → {target}?
The run “{question}” ends cancelled.</source>
        <translation>拒绝 {tool} → {target}？
运行“{question}”将以已取消结束。</translation>
    </message>
    <message>
        <source>Rea&amp;son (required):</source>
        <translation>理由(&amp;S)（必填）：</translation>
    </message>
    <message>
        <source>Reason for rejecting</source>
        <translation>拒绝理由</translation>
    </message>
    <message>
        <source>Say why: the reason is kept with the decision.</source>
        <translation>请说明原因：理由会与决定一起保存。</translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation>拒绝(&amp;R)</translation>
    </message>
    <message>
        <source>Reject with this reason</source>
        <translation>以此理由拒绝</translation>
    </message>
    <message>
        <source>Cancel, keep it pending</source>
        <translation>取消，保持待决</translation>
    </message>
    <message>
        <source>At most {n} characters, please.</source>
        <translation>最多 {n} 个字符。</translation>
    </message>
</context>
<context>
    <name>RememberRow</name>
    <message>
        <source>Always allow for this folder</source>
        <translation>始终允许此文件夹</translation>
    </message>
    <message>
        <source>Rule: {rule}</source>
        <translation>规则：{rule}</translation>
    </message>
</context>
<context>
    <name>RevisionPart</name>
    <message>
        <source>Revision</source>
        <translation>修订</translation>
    </message>
    <message>
        <source>Changes since the previous revision</source>
        <translation>相对上一修订的改动</translation>
    </message>
    <message>
        <source>Revision {revision} — you asked: {note}</source>
        <translation>第 {revision} 版 — 你的要求：{note}</translation>
    </message>
    <message>
        <source>Revision {revision} — {reviewer} asked: {note}</source>
        <translation>第 {revision} 版 — {reviewer} 的要求：{note}</translation>
    </message>
    <message>
        <source>Changes since revision {n}</source>
        <translation>相对第 {n} 版的改动</translation>
    </message>
    <message>
        <source>revision {n} (sent back)</source>
        <translation>第 {n} 版（已退回）</translation>
    </message>
    <message>
        <source>revision {n}</source>
        <translation>第 {n} 版</translation>
    </message>
    <message>
        <source>&lt;b&gt;Replaced:&lt;/b&gt; the agent answered with a new revision. Show it to read what changed; nothing is decided until you do.</source>
        <translation>&lt;b&gt;已替换：&lt;/b&gt;智能体给出了新的修订。请打开查看改动；在你决定之前不会做出任何决定。</translation>
    </message>
    <message>
        <source>Show the newest version to read it; nothing is decided until you do.</source>
        <translation>请显示最新版本并阅读；在你决定之前不会做出任何决定。</translation>
    </message>
    <message>
        <source>Show the new revision</source>
        <translation>显示新的修订</translation>
    </message>
    <message>
        <source>Show the newest version</source>
        <translation>显示最新版本</translation>
    </message>
</context>
<context>
    <name>RulesWindow</name>
    <message>
        <source>Remembered decisions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each rule lets a tool act on files under a folder without asking a person again. Revoke a rule to be asked again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No remembered decisions yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{active} active of {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope: {rule}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke this rule?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From now on a person is asked again before: {rule}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunDelegate</name>
    <message>
        <source>✖ {n} blocked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on {desk} · {rest}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <source>How do checkpoints make agent runs durable?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask a research question about your corpus…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished">问题</translation>
    </message>
    <message>
        <source>Offline (built in)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI (see Settings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default: ask before writes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip permissions (dangerous)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>▶  Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a run with this question (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>■  Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the selected run (Ctrl+.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default: the home&apos;s corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the corpus folder for this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default: the home&apos;s artifacts folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the artifacts folder for this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunState</name>
    <message>
        <source>Ready to continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only a finished run can be deleted; cancel it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected run: its timeline, checkpoints and approvals, for good.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a finished run to delete it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunSummary</name>
    <message>
        <source>Select a run to see its details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Desk</source>
        <translation type="unfinished">工位</translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for approval: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question for you: {question}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunsList</name>
    <message>
        <source>No runs yet.

Press Run to start one. Runs started with briefdesk-cli on this home appear here too, live.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <source>{status} · {n} blocked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · on desk {desk}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message>
        <source>Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All runs: {usage}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Offline (built in, no network)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI-compatible endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat Completions (most compatible servers)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Responses (OpenAI)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default: ask before every write</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept edits: writes inside the artifacts folder run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip permissions (dangerous)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Several desks can share one PostgreSQL database: each desk then sees every run and proposal of the team, and a reviewer decides from any desk. The corpus, long-term memory and these settings stay on this computer; the database password stays in the system keyring, never in a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key is stored in {where}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key stored yet ({where}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BriefDesk settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Team database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a preset…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model name</source>
        <translation type="unfinished">模型中的名称</translation>
    </message>
    <message>
        <source>Stream the model&apos;s text into the timeline as it is written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key (kept in the system keyring, never in files)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste a new key to store it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished">移除</translation>
    </message>
    <message>
        <source>OpenAI key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the keyring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Permission mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A pending approval expires after this many seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval expires after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reviewer name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let fetch_url reach the domains below (no mode enables it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>example.org, docs.python.org</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed domains</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This server needs an API key: store it below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This server usually needs no API key. Set the model name to one it serves.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking {url}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste a key first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Storing the key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key was not stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key was not removed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts — BriefDesk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SideTabs</name>
    <message>
        <source>The artifacts panel is not available in this build.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StoreStatus</name>
    <message>
        <source>Saved. A run is being driven in this window, so it stays on its database for now: BriefDesk uses the new one the next time it starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. {why}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StoreText</name>
    <message>
        <source>--db on the command line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the BRIEFDESK_DB environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Team database {where}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{store} · desk {desk}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs, approvals and decisions live in the team database {url}, shared by every desk that uses it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs live on this computer only, in the home&apos;s database {url}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Chosen by {what}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This desk: {desk}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This window uses the database given by {what}; the URL saved here is used when BriefDesk starts without it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not reachable. {why}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reachable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Schema revision {n}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Up to date.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A password for this database is stored in {where}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No password stored for this database yet ({where}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> {name} is set in the environment: it is used instead of the keyring.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TeamDatabaseBox</name>
    <message>
        <source>postgresql://desk@db.example.org/team (empty: this computer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where runs, proposals and decisions live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept in the system keyring, never in files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: runs live on this computer only. A team database lets every desk that uses it see every run and proposal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved. Every desk that uses this database sees every run and proposal.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save checks that the database can be reached, then the window reconnects to it (runs on this computer stay in its home, unchanged).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save reconnects the window to this computer&apos;s own database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the password first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Storing the password…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password was not stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Theme</name>
    <message>
        <source>Not started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs an answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crash &amp; resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lifecycle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineModel</name>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished">类型</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished">工具</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the call to its result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the start of the run to its end, waits for people included</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <source>Select an event to see its data (secrets are redacted).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished">时间线</translation>
    </message>
    <message>
        <source>Show {kinds} (arrow keys move, Space toggles)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter events: text, tool, path, outcome… (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter the timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⤓ Follow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the newest event in view (pauses while you scroll up)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{total} events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{shown} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No event matches “{typed}”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No event of the kinds shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ({kinds} hidden)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{what}. Clear the filter or show more kinds to see the run&apos;s events.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineTable</name>
    <message>
        <source>Select a run on the left, or press Run (Ctrl+Enter) to start one.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UsageText</name>
    <message>
        <source>cost unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{requests} req · {tokens} tok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> ({input} in, {output} out)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{used} (no limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{used} of {limit}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WindowBanners</name>
    <message>
        <source>{n} runs were interrupted when their process died. Newest: “{question}”. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{question}” was interrupted when its process died. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume continues from its last checkpoint without repeating a side effect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A file nobody approved appeared in the artifacts folder: {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} files nobody approved appeared in the artifacts folder while no run was watching it. Latest: {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
