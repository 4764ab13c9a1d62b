<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
    <name>AppContext</name>
    <message>
        <source>Your decision is recorded. Desk {desk} continues the run.</source>
        <translation>你的决定已记录。工位 {desk} 将继续该运行。</translation>
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
</context>
<context>
    <name>ApprovalEditPanel</name>
    <message>
        <source>Discard edits</source>
        <translation>放弃修改</translation>
    </message>
    <message>
        <source>Approve edited  (Ctrl+Shift+A)</source>
        <translation>批准修改后的内容  (Ctrl+Shift+A)</translation>
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
    <name>HelpMenu</name>
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
        <source>{n} pending approval</source>
        <translation>{n} 个待审批请求</translation>
    </message>
    <message>
        <source>{n} pending approvals</source>
        <translation>{n} 个待审批请求</translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>未选择运行</translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
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
    <name>SettingsDialog</name>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
</context>
</TS>
