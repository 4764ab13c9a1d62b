<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>About</name>
    <message>
        <source>About BriefDesk</source>
        <translation>关于 BriefDesk</translation>
    </message>
    <message>
        <source>BriefDesk runs a local research-brief agent with a checkpoint at every tool boundary, a person&apos;s approval before every risky action, and keys in the system keyring.</source>
        <translation>BriefDesk 在本机运行一个撰写研究简报的智能体：每个工具边界都有检查点，每个有风险的操作之前都由人审批，密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>Released under the MIT licence.</source>
        <translation>以 MIT 许可证发布。</translation>
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
        <source>Folders it may write in besides those named in its command, one a line</source>
        <translation>除命令中指定的文件夹外，它还可以写入的文件夹，每行一个</translation>
    </message>
    <message>
        <source>Granted folders</source>
        <translation>授权文件夹</translation>
    </message>
    <message>
        <source>Add a folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>It may reach the network</source>
        <translation>允许访问网络</translation>
    </message>
    <message>
        <source>Otherwise it has only a loopback of its own (as `mcp add --network`).</source>
        <translation>否则它只有自己的回环网络（同 `mcp add --network`）。</translation>
    </message>
    <message>
        <source>Run it without a sandbox (unconfined)</source>
        <translation>不使用沙箱运行（不受限制）</translation>
    </message>
    <message>
        <source>Only for a server that cannot run confined: it then reads and writes whatever you can (as `mcp add --no-sandbox`).</source>
        <translation>仅用于无法在受限环境中运行的服务器：它将能读写你能读写的一切（同 `mcp add --no-sandbox`）。</translation>
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
    <message>
        <source>A folder the server may write in</source>
        <translation>服务器可以写入的文件夹</translation>
    </message>
</context>
<context>
    <name>AgentApproval</name>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; wants to patch &lt;b&gt;{file}&lt;/b&gt; in {folder}</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 想修补 {folder} 中的 &lt;b&gt;{file}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; wants to edit &lt;b&gt;{file}&lt;/b&gt; in {folder}</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 想编辑 {folder} 中的 &lt;b&gt;{file}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; wants to create &lt;b&gt;{file}&lt;/b&gt; in {folder}</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 想在 {folder} 中创建 &lt;b&gt;{file}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; wants to overwrite &lt;b&gt;{file}&lt;/b&gt; in {folder}</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 想覆盖 {folder} 中的 &lt;b&gt;{file}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; wants to run a command in {folder}</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 想在 {folder} 中运行一条命令</translation>
    </message>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; wants to call &lt;b&gt;{mcp_tool}&lt;/b&gt; of the MCP server &lt;b&gt;{server}&lt;/b&gt;</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 想调用 MCP 服务器 &lt;b&gt;{server}&lt;/b&gt; 的 &lt;b&gt;{mcp_tool}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; wants to reach the network</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 想访问网络</translation>
    </message>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; wants to use &lt;b&gt;{tool}&lt;/b&gt; in {folder}</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 想在 {folder} 中使用 &lt;b&gt;{tool}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>{run} ({status}): {session} · {id}</source>
        <translation>{run}（{status}）：{session} · {id}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Lines:&lt;/b&gt; +{added} −{removed} · {lines} after the change</source>
        <translation>&lt;b&gt;行数：&lt;/b&gt;+{added} −{removed} · 改动后共 {lines} 行</translation>
    </message>
    <message>
        <source>What the agent&apos;s call does</source>
        <translation>智能体的这次调用做什么</translation>
    </message>
    <message>
        <source>MCP server: &lt;b&gt;{server}&lt;/b&gt; · tool: &lt;b&gt;{tool}&lt;/b&gt; · arguments below</source>
        <translation>MCP 服务器：&lt;b&gt;{server}&lt;/b&gt; · 工具：&lt;b&gt;{tool}&lt;/b&gt; · 参数见下方</translation>
    </message>
    <message>
        <source>Address: &lt;b&gt;{url}&lt;/b&gt;</source>
        <translation>地址：&lt;b&gt;{url}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Tool: &lt;b&gt;{tool}&lt;/b&gt; · arguments below</source>
        <translation>工具：&lt;b&gt;{tool}&lt;/b&gt; · 参数见下方</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>Folder: &lt;b&gt;{folder}&lt;/b&gt;</source>
        <translation>文件夹：&lt;b&gt;{folder}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Look twice:&lt;/b&gt; {words}</source>
        <translation>&lt;b&gt;请仔细看：&lt;/b&gt;{words}</translation>
    </message>
    <message>
        <source>Names in the folder: {paths}</source>
        <translation>涉及文件夹内的：{paths}</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:#b42318;&quot;&gt;&lt;b&gt;Outside the folder:&lt;/b&gt;&lt;/span&gt; {paths}</source>
        <translation>&lt;span style=&quot;color:#b42318;&quot;&gt;&lt;b&gt;文件夹之外：&lt;/b&gt;&lt;/span&gt;{paths}</translation>
    </message>
    <message>
        <source>Reaches: {urls}</source>
        <translation>访问：{urls}</translation>
    </message>
    <message>
        <source>&lt;small&gt;A command runs as you: it can change anything you can. These are the paths and addresses it names.&lt;/small&gt;</source>
        <translation>&lt;small&gt;命令以你的身份运行：凡是你能改动的它都能改动。以上是命令中写明的路径和地址。&lt;/small&gt;</translation>
    </message>
    <message>
        <source>File of the patch</source>
        <translation>补丁中的文件</translation>
    </message>
    <message>
        <source>File {n} of {count}: {path}</source>
        <translation>第 {n} 个文件（共 {count} 个）：{path}</translation>
    </message>
</context>
<context>
    <name>AgentLabels</name>
    <message>
        <source>{agent}: {call}</source>
        <translation>{agent}：{call}</translation>
    </message>
    <message>
        <source>{agent} session</source>
        <translation>{agent} 会话</translation>
    </message>
    <message>
        <source>{agent} in {folder}</source>
        <translation>{agent} · {folder}</translation>
    </message>
    <message>
        <source>session {id}</source>
        <translation>会话 {id}</translation>
    </message>
</context>
<context>
    <name>AgentsPage</name>
    <message>
        <source>BriefDesk can decide for the coding agents you already run: connected, the agent asks BriefDesk before it writes, edits, runs a command, fetches or calls an MCP tool, and waits for your decision here (reads pass at once).</source>
        <translation>BriefDesk 可以替你已在使用的编程智能体做审批：连接后，智能体在写入、编辑、运行命令、抓取网页或调用 MCP 工具之前先询问 BriefDesk，并在这里等待你的决定（读取操作立即放行）。</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Settings file</source>
        <translation>设置文件</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在载入…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Connect…</source>
        <translation>连接…</translation>
    </message>
    <message>
        <source>Disconnect…</source>
        <translation>断开…</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>&lt;b&gt;{agent}&lt;/b&gt; reads its settings from {path}</source>
        <translation>&lt;b&gt;{agent}&lt;/b&gt; 从 {path} 读取设置</translation>
    </message>
    <message>
        <source>&lt;b&gt;Trust:&lt;/b&gt; {text}</source>
        <translation>&lt;b&gt;信任：&lt;/b&gt;{text}</translation>
    </message>
    <message>
        <source>Reading {path}…</source>
        <translation>正在读取 {path}…</translation>
    </message>
    <message>
        <source>Nothing to change: {agent} is already as asked.</source>
        <translation>无需改动：{agent} 已是所要求的状态。</translation>
    </message>
    <message>
        <source>{agent} is connected: it asks BriefDesk from its next start.</source>
        <translation>{agent} 已连接：从下次启动起它会询问 BriefDesk。</translation>
    </message>
    <message>
        <source>{agent} is disconnected: its settings are as before.</source>
        <translation>{agent} 已断开：其设置恢复原样。</translation>
    </message>
    <message>
        <source>The file as it was: {path}</source>
        <translation>文件原样副本：{path}</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Reconnected: runs now live in {store}.</source>
        <translation>已重新连接：运行现在保存在{store}。</translation>
    </message>
    <message>
        <source>BriefDesk cannot open its home folder, so it will close.</source>
        <translation>BriefDesk 无法打开其主目录，即将关闭。</translation>
    </message>
</context>
<context>
    <name>AppContext</name>
    <message>
        <source>The run failed. {why}</source>
        <translation>运行失败。{why}</translation>
    </message>
    <message>
        <source>The run succeeded.</source>
        <translation>运行成功。</translation>
    </message>
    <message>
        <source>{run} is already running in this window.</source>
        <translation>{run} 已在此窗口中运行。</translation>
    </message>
    <message>
        <source>Stopping at the next tool boundary…</source>
        <translation>将在下一个工具边界停止…</translation>
    </message>
    <message>
        <source>Run cancelled.</source>
        <translation>运行已取消。</translation>
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
        <translation>外观</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>{name} is set: it wins over this choice while it is set.</source>
        <translation>已设置 {name}：在它被设置期间，它优先于此处的选择。</translation>
    </message>
    <message>
        <source>Notify me when a decision waits</source>
        <translation>有待决事项时通知我</translation>
    </message>
    <message>
        <source>A desktop notification when a proposal or a question waits and BriefDesk is not the active window, and a reminder shortly before a proposal expires. It only opens the proposal: nothing is decided from a notification.</source>
        <translation>当有提议或问题在等待、而 BriefDesk 不是当前窗口时，发出桌面通知；提议即将过期前再提醒一次。通知只会打开该提议：不会在通知中做出任何决定。</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The window&apos;s language changes at the next start.</source>
        <translation>窗口语言将在下次启动时更改。</translation>
    </message>
    <message>
        <source>The language applies the next time BriefDesk starts.</source>
        <translation>语言将在 BriefDesk 下次启动时生效。</translation>
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
        <translation>“{caption}”在 {seconds} 秒后才可用，以免本想按给其他窗口的按键批准了这次写入。快捷键：{keys}。</translation>
    </message>
    <message>
        <source>Closes without deciding; enabled after {seconds} seconds (Escape closes at once).</source>
        <translation>不做决定直接关闭；{seconds} 秒后可用（按 Esc 可立即关闭）。</translation>
    </message>
    <message>
        <source>Changes to the file</source>
        <translation>文件的改动</translation>
    </message>
    <message>
        <source>The brief as it reads, with links to its sources</source>
        <translation>简报正文，附有指向来源的链接</translation>
    </message>
    <message>
        <source>Proposed content</source>
        <translation>提议的内容</translation>
    </message>
    <message>
        <source>Arguments of the tool call</source>
        <translation>工具调用的参数</translation>
    </message>
    <message>
        <source>Path inside the artifacts folder</source>
        <translation>产出文件夹内的路径</translation>
    </message>
    <message>
        <source>Edited content</source>
        <translation>修改后的内容</translation>
    </message>
    <message>
        <source>Scope of the rule</source>
        <translation>规则的范围</translation>
    </message>
    <message>
        <source>Reason for rejecting</source>
        <translation>拒绝理由</translation>
    </message>
    <message>
        <source>Note for the agent</source>
        <translation>给智能体的说明</translation>
    </message>
    <message>
        <source>Approve this write ({keys}). It enables a moment after the proposal is shown, so that a key meant for another window never approves it.</source>
        <translation>批准这次写入（{keys}）。提议显示片刻之后才可用，以免本想按给其他窗口的按键批准了它。</translation>
    </message>
    <message>
        <source>Approve, Approve edited or Approve and remember, once the read guard has passed</source>
        <translation>批准、批准修改后的内容或批准并记住（阅读保护时间过后）</translation>
    </message>
    <message>
        <source>Close without deciding (also during the read guard)</source>
        <translation>不做决定直接关闭（阅读保护期间也可以）</translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message>
        <source>Approve a write — BriefDesk</source>
        <translation>批准写入 — BriefDesk</translation>
    </message>
    <message>
        <source>Loading the proposal…</source>
        <translation>正在载入提议…</translation>
    </message>
    <message>
        <source>Show the newest version</source>
        <translation>显示最新版本</translation>
    </message>
    <message>
        <source>proposed content</source>
        <translation>提议的内容</translation>
    </message>
    <message>
        <source>(file removed)</source>
        <translation>（文件被删除）</translation>
    </message>
    <message>
        <source>after the change</source>
        <translation>改动之后</translation>
    </message>
    <message>
        <source>&lt;b&gt;Arguments&lt;/b&gt;</source>
        <translation>&lt;b&gt;参数&lt;/b&gt;</translation>
    </message>
    <message>
        <source>current file</source>
        <translation>当前文件</translation>
    </message>
    <message>
        <source>(no file yet)</source>
        <translation>（尚无文件）</translation>
    </message>
    <message>
        <source>edited content</source>
        <translation>修改后的内容</translation>
    </message>
</context>
<context>
    <name>ApprovalEditPanel</name>
    <message>
        <source>Path inside the artifacts folder:</source>
        <translation>产出文件夹内的路径：</translation>
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
        <translation>参数嵌套过深</translation>
    </message>
    <message>
        <source>the arguments must be a JSON object</source>
        <translation>参数必须是一个 JSON 对象</translation>
    </message>
</context>
<context>
    <name>ApprovalMcp</name>
    <message>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>destructive</source>
        <translation>破坏性</translation>
    </message>
    <message>
        <source>idempotent</source>
        <translation>幂等</translation>
    </message>
    <message>
        <source>reaches outside</source>
        <translation>访问外部</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>no hints declared</source>
        <translation>未声明任何提示</translation>
    </message>
    <message>
        <source>From MCP server &lt;b&gt;{server}&lt;/b&gt;, its tool &lt;b&gt;{tool}&lt;/b&gt;. The server says: {hints}</source>
        <translation>来自 MCP 服务器 &lt;b&gt;{server}&lt;/b&gt; 的工具 &lt;b&gt;{tool}&lt;/b&gt;。服务器声称：{hints}</translation>
    </message>
    <message>
        <source>This call already reached the server and its answer was never recorded: it may have happened. Approve runs it again, Reject records it as not done, It did happen records it as done without calling it again.</source>
        <translation>此调用已到达服务器，但其回答从未被记录：它可能已经执行。“批准”会再次执行它，“拒绝”将其记为未执行，“确实已执行”则将其记为已执行而不再调用。</translation>
    </message>
    <message>
        <source>It did happen</source>
        <translation>确实已执行</translation>
    </message>
    <message>
        <source>Record that this call happened; it is not called again</source>
        <translation>记录此调用已执行；不会再次调用</translation>
    </message>
</context>
<context>
    <name>ApprovalText</name>
    <message>
        <source>this run only</source>
        <translation>仅此次运行</translation>
    </message>
    <message>
        <source>every run in this home</source>
        <translation>此主目录中的所有运行</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Risk tier</source>
        <translation>风险等级</translation>
    </message>
    <message>
        <source>Expires in</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>Arg hash</source>
        <translation>参数哈希</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>State version</source>
        <translation>状态版本</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>审阅者</translation>
    </message>
    <message>
        <source>{caption}:</source>
        <translation>{caption}：</translation>
    </message>
    <message>
        <source>at {when}</source>
        <translation>于 {when}</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>&lt;b&gt;Revert&lt;/b&gt; of {id}: remove the file it created</source>
        <translation>&lt;b&gt;撤销&lt;/b&gt; {id}：删除它创建的文件</translation>
    </message>
    <message>
        <source>&lt;b&gt;Revert&lt;/b&gt; of {id}: put the file back as it was</source>
        <translation>&lt;b&gt;撤销&lt;/b&gt; {id}：把文件恢复原样</translation>
    </message>
    <message>
        <source>&lt;b&gt;{tool}&lt;/b&gt; wants to create a new file — version {v}</source>
        <translation>&lt;b&gt;{tool}&lt;/b&gt; 想要创建一个新文件 — 第 {v} 版</translation>
    </message>
    <message>
        <source>&lt;b&gt;{tool}&lt;/b&gt; wants to overwrite an existing file — version {v}</source>
        <translation>&lt;b&gt;{tool}&lt;/b&gt; 想要覆盖一个已有文件 — 第 {v} 版</translation>
    </message>
    <message>
        <source>&lt;b&gt;{tool}&lt;/b&gt; needs approval ({risk})</source>
        <translation>&lt;b&gt;{tool}&lt;/b&gt; 需要审批（{risk}）</translation>
    </message>
    <message>
        <source> · proposed on &lt;b&gt;{desk}&lt;/b&gt;</source>
        <translation> · 由工位 &lt;b&gt;{desk}&lt;/b&gt; 提议</translation>
    </message>
    <message>
        <source>{state} (proposal v{v})</source>
        <translation>{state}（提议第 {v} 版）</translation>
    </message>
    <message>
        <source>{run} ({status}): “{question}”</source>
        <translation>{run}（{status}）：“{question}”</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>{n} source cited</source>
        <translation>引用了 {n} 个来源</translation>
    </message>
    <message>
        <source>{n} sources cited</source>
        <translation>引用了 {n} 个来源</translation>
    </message>
    <message>
        <source>&lt;b&gt;Content:&lt;/b&gt; {bytes} bytes · {lines} lines · &lt;b&gt;{cited}&lt;/b&gt; ({listed})</source>
        <translation>&lt;b&gt;内容：&lt;/b&gt;{bytes} 字节 · {lines} 行 · &lt;b&gt;{cited}&lt;/b&gt;（{listed}）</translation>
    </message>
    <message>
        <source>(the file on the proposing desk: its content was not kept)</source>
        <translation>（提议工位上的文件：其内容未被保留）</translation>
    </message>
    <message>
        <source>(no file yet)</source>
        <translation>（尚无文件）</translation>
    </message>
    <message>
        <source>file on the proposing desk, when proposed</source>
        <translation>提议时提议工位上的文件</translation>
    </message>
    <message>
        <source>current file on disk (changed since the proposal)</source>
        <translation>磁盘上的当前文件（提议之后已改变）</translation>
    </message>
    <message>
        <source>current file on disk</source>
        <translation>磁盘上的当前文件</translation>
    </message>
    <message>
        <source>approved by the rule {rule}</source>
        <translation>已由规则 {rule} 批准</translation>
    </message>
    <message>
        <source>approved by {who}</source>
        <translation>已由 {who} 批准</translation>
    </message>
    <message>
        <source>rejected by {who}</source>
        <translation>已被 {who} 拒绝</translation>
    </message>
    <message>
        <source>sent back for changes by {who}</source>
        <translation>已被 {who} 退回修改</translation>
    </message>
    <message>
        <source>replaced by an edited version by {who}</source>
        <translation>已被 {who} 编辑后的版本取代</translation>
    </message>
    <message>
        <source> by &lt;b&gt;{who}&lt;/b&gt;</source>
        <translation>，由 &lt;b&gt;{who}&lt;/b&gt;</translation>
    </message>
    <message>
        <source> (remembered rule {rule})</source>
        <translation>（已记住的规则 {rule}）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Expired&lt;/b&gt; at {when}: nobody decided in time, so it can no longer be approved and its run has ended.</source>
        <translation>&lt;b&gt;已过期&lt;/b&gt;于 {when}：没有人及时做出决定，因此它已无法再被批准，其运行已结束。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Superseded&lt;/b&gt;{by} at {when}: an edit replaced it with a newer version.</source>
        <translation>&lt;b&gt;已被取代&lt;/b&gt;{by}，于 {when}：一次修改用更新的版本替换了它。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Already approved&lt;/b&gt;{by} at {when}{why}.</source>
        <translation>&lt;b&gt;已批准&lt;/b&gt;{by}，于 {when}{why}。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Approved&lt;/b&gt;{by} and &lt;b&gt;executed&lt;/b&gt; at {ran}.</source>
        <translation>&lt;b&gt;已批准&lt;/b&gt;{by}，并于 {ran} &lt;b&gt;执行&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rejected&lt;/b&gt;{by} at {when}{why}.</source>
        <translation>&lt;b&gt;已拒绝&lt;/b&gt;{by}，于 {when}{why}。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sent back for changes&lt;/b&gt;{by} at {when}{why}: nothing was written; the agent proposes again when the run goes on.</source>
        <translation>&lt;b&gt;已退回修改&lt;/b&gt;{by}，于 {when}{why}：没有写入任何内容；运行继续时智能体会重新提议。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Closed&lt;/b&gt;: its run was cancelled{by} at {when} while it waited.</source>
        <translation>&lt;b&gt;已关闭&lt;/b&gt;：它在等待时，其运行已被取消{by}，于 {when}。</translation>
    </message>
    <message>
        <source>it has been deleted</source>
        <translation>它已被删除</translation>
    </message>
    <message>
        <source>it now exists (it did not when the write was proposed)</source>
        <translation>它现在已存在（提议写入时并不存在）</translation>
    </message>
    <message>
        <source>it has different content</source>
        <translation>它的内容已不同</translation>
    </message>
    <message>
        <source>&lt;b&gt;The target changed on disk since this proposal was made:&lt;/b&gt; {what}. The diff below is against what is there now. Approving this proposal answers &lt;b&gt;target_changed&lt;/b&gt;; reject it, or Edit to propose it again against the current file.</source>
        <translation>&lt;b&gt;提出此提议之后，目标文件在磁盘上已改变：&lt;/b&gt;{what}。下面的差异是与现在的文件比较的。批准此提议会得到 &lt;b&gt;target_changed&lt;/b&gt;；请拒绝它，或点“修改”基于当前文件重新提议。</translation>
    </message>
    <message>
        <source>(nothing: this call has no target to remember)</source>
        <translation>（无：此调用没有可记住的目标）</translation>
    </message>
    <message>
        <source>Approve this write &lt;b&gt;and&lt;/b&gt; from now on allow &lt;b&gt;{rule}&lt;/b&gt;{which} without asking?</source>
        <translation>批准这次写入，&lt;b&gt;并且&lt;/b&gt;从现在起无需询问即允许 &lt;b&gt;{rule}&lt;/b&gt;{which}？</translation>
    </message>
    <message>
        <source>a new file</source>
        <translation>新文件</translation>
    </message>
    <message>
        <source>replaces the existing file</source>
        <translation>替换已有文件</translation>
    </message>
    <message>
        <source>✓ will write &lt;b&gt;{target}&lt;/b&gt; ({where})</source>
        <translation>✓ 将写入 &lt;b&gt;{target}&lt;/b&gt;（{where}）</translation>
    </message>
</context>
<context>
    <name>ArtifactViewer</name>
    <message>
        <source>Reading {file}…</source>
        <translation>正在读取 {file}…</translation>
    </message>
    <message>
        <source> Citations are links to the documents they cite.</source>
        <translation> 引用是指向所引文档的链接。</translation>
    </message>
    <message>
        <source>{file} (read-only: no program on this system opens it); only its first {n} bytes are shown.</source>
        <translation>{file}（只读：本系统没有程序能打开它）；只显示前 {n} 字节。</translation>
    </message>
    <message>
        <source>{file} (read-only: no program on this system opens it).</source>
        <translation>{file}（只读：本系统没有程序能打开它）。</translation>
    </message>
    <message>
        <source>{file} cannot be shown. {why}</source>
        <translation>无法显示 {file}。{why}</translation>
    </message>
</context>
<context>
    <name>ArtifactsPanel</name>
    <message>
        <source>✓ confirmed once</source>
        <translation>✓ 已确认一次</translation>
    </message>
    <message>
        <source>⚠ duplicate write</source>
        <translation>⚠ 重复写入</translation>
    </message>
    <message>
        <source>✖ unexpected</source>
        <translation>✖ 未经批准</translation>
    </message>
    <message>
        <source>… not checked yet</source>
        <translation>… 尚未检查</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Writes seen</source>
        <translation>观察到的写入</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified (UTC)</source>
        <translation>修改时间 (UTC)</translation>
    </message>
    <message>
        <source>This run&apos;s writes</source>
        <translation>本次运行的写入</translation>
    </message>
    <message>
        <source>Whole folder</source>
        <translation>整个文件夹</translation>
    </message>
    <message>
        <source>No run selected.</source>
        <translation>未选择运行。</translation>
    </message>
    <message>
        <source>This run&apos;s writes: the files the selected run wrote (and any its watcher flagged).
Whole folder: every file in its artifacts folder, whichever run wrote it.</source>
        <translation>本次运行的写入：所选运行写入的文件（以及其监视器标记的文件）。
整个文件夹：其产出文件夹中的所有文件，无论由哪次运行写入。</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Open the artifacts folder in the file manager</source>
        <translation>在文件管理器中打开产出文件夹</translation>
    </message>
    <message>
        <source>Revert…</source>
        <translation>撤销…</translation>
    </message>
    <message>
        <source>Revert this write…: propose putting the file back as it was before this run wrote it (or removing it, if the run created it). You decide in the approval dialog; nothing changes before.</source>
        <translation>撤销这次写入…：提议把文件恢复到本次运行写入之前的样子（若文件由本次运行创建，则删除它）。由你在审批对话框中决定；在此之前不会改变任何内容。</translation>
    </message>
    <message>
        <source>Refresh the list</source>
        <translation>刷新列表</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Files message</source>
        <translation>文件提示</translation>
    </message>
    <message>
        <source>No file manager opened {folder}: open it yourself.</source>
        <translation>没有文件管理器打开 {folder}：请自行打开。</translation>
    </message>
    <message>
        <source>files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>{n} file</source>
        <translation>{n} 个文件</translation>
    </message>
    <message>
        <source>{n} files</source>
        <translation>{n} 个文件</translation>
    </message>
    <message>
        <source>&lt;b&gt;Whole folder&lt;/b&gt;: {files} in &lt;code&gt;{folder}&lt;/code&gt;, whichever run wrote them.</source>
        <translation>&lt;b&gt;整个文件夹&lt;/b&gt;：&lt;code&gt;{folder}&lt;/code&gt; 中的 {files}，无论由哪次运行写入。</translation>
    </message>
    <message>
        <source>&lt;b&gt;This run&apos;s writes&lt;/b&gt;: {files} that &lt;b&gt;{run}&lt;/b&gt; wrote (or its watcher flagged) in &lt;code&gt;{folder}&lt;/code&gt;.</source>
        <translation>&lt;b&gt;本次运行的写入&lt;/b&gt;：&lt;b&gt;{run}&lt;/b&gt; 在 &lt;code&gt;{folder}&lt;/code&gt; 中写入（或其监视器标记）的 {files}。</translation>
    </message>
    <message>
        <source>Cannot list {folder}. {why}</source>
        <translation>无法列出 {folder}。{why}</translation>
    </message>
    <message>
        <source>{path}
writes seen: {writes}
size: {size}
modified: {at} UTC</source>
        <translation>{path}
观察到的写入：{writes}
大小：{size}
修改时间：{at} UTC</translation>
    </message>
    <message>
        <source>Shown here, read-only.</source>
        <translation>已在此处以只读方式显示。</translation>
    </message>
    <message>
        <source>Revert this write?</source>
        <translation>撤销这次写入？</translation>
    </message>
    <message>
        <source>Propose putting {file} back as it was before approval {id} wrote it?

The run waits for your decision in the approval dialog, which shows the change; nothing is written before you approve it.</source>
        <translation>提议把 {file} 恢复到审批 {id} 写入之前的样子？

运行将在审批对话框中等待你的决定，对话框会显示这一改动；在你批准之前不会写入任何内容。</translation>
    </message>
    <message>
        <source>&amp;Propose revert</source>
        <translation>提议撤销(&amp;P)</translation>
    </message>
    <message>
        <source>Not reverted. {why}</source>
        <translation>未撤销。{why}</translation>
    </message>
</context>
<context>
    <name>AuditWindow</name>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>&amp;Run:</source>
        <translation>运行(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Who:</source>
        <translation>人员(&amp;W)：</translation>
    </message>
    <message>
        <source>Select an entry to see it whole.</source>
        <translation>选择一个条目以查看完整内容。</translation>
    </message>
    <message>
        <source>Selected entry</source>
        <translation>所选条目</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在载入…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>All runs</source>
        <translation>所有运行</translation>
    </message>
    <message>
        <source>Everyone</source>
        <translation>所有人</translation>
    </message>
    <message>
        <source>{n} decision</source>
        <translation>{n} 个决定</translation>
    </message>
    <message>
        <source>{n} decisions</source>
        <translation>{n} 个决定</translation>
    </message>
    <message>
        <source>{n} blocked action</source>
        <translation>{n} 个被阻止的操作</translation>
    </message>
    <message>
        <source>{n} blocked actions</source>
        <translation>{n} 个被阻止的操作</translation>
    </message>
    <message>
        <source>{decisions}, {blocks}</source>
        <translation>{decisions}，{blocks}</translation>
    </message>
    <message>
        <source>No entries match these filters.</source>
        <translation>没有条目符合这些筛选条件。</translation>
    </message>
    <message>
        <source>Nothing recorded yet.</source>
        <translation>尚无记录。</translation>
    </message>
    <message>
        <source>Export the audit log</source>
        <translation>导出审计日志</translation>
    </message>
    <message>
        <source>Exported {n} entries to {path}.</source>
        <translation>已将 {n} 个条目导出到 {path}。</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>BriefTabs</name>
    <message>
        <source>Changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <source>Brief, with links to its sources</source>
        <translation>简报（附来源链接）</translation>
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
    <name>ChangePreview</name>
    <message>
        <source>Connect {agent}?</source>
        <translation>连接 {agent}？</translation>
    </message>
    <message>
        <source>Disconnect {agent}?</source>
        <translation>断开 {agent}？</translation>
    </message>
    <message>
        <source>BriefDesk adds its hook to &lt;b&gt;{path}&lt;/b&gt;, changing nothing else in the file (a copy of it is kept beside it). Then {agent} asks BriefDesk before it writes, edits, runs a command, fetches or calls an MCP tool; a call nobody decides in time is denied.</source>
        <translation>BriefDesk 会把它的钩子加入 &lt;b&gt;{path}&lt;/b&gt;，文件中的其他内容不变（旁边保留一份原文件副本）。之后 {agent} 在写入、编辑、运行命令、抓取网页或调用 MCP 工具之前都会询问 BriefDesk；无人及时决定的调用会被拒绝。</translation>
    </message>
    <message>
        <source>BriefDesk removes exactly the hook it added from &lt;b&gt;{path}&lt;/b&gt;; the rest of the file stays as it is. {agent} then decides its calls by itself again.</source>
        <translation>BriefDesk 会从 &lt;b&gt;{path}&lt;/b&gt; 中只移除它添加的钩子；文件其余部分保持不变。之后 {agent} 重新自行决定它的调用。</translation>
    </message>
    <message>
        <source>The change to the settings file</source>
        <translation>对设置文件的改动</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>断开</translation>
    </message>
</context>
<context>
    <name>CitationLinks</name>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
</context>
<context>
    <name>Confirm</name>
    <message>
        <source>This run is recorded as running on another computer, “{host}” (process {pid}), since {since}.

This computer cannot tell whether it still runs there. If it has stopped there (the computer was renamed, or BriefDesk was closed), take it over to continue it here from its last checkpoint, without repeating a side effect. If it still runs there, leave it.</source>
        <translation>记录显示此运行自 {since} 起正在另一台计算机“{host}”上运行（进程 {pid}）。

本机无法判断它是否仍在那里运行。如果它已在那里停止（那台计算机改了名，或 BriefDesk 已关闭），可以接管它，在本机从最后一个检查点继续，不会重复任何副作用。如果它仍在那里运行，请不要动它。</translation>
    </message>
    <message>
        <source>Delete the run “{question}” ({run})?

Its timeline, checkpoints and approvals are removed for good. Files it wrote stay in the artifacts folder.</source>
        <translation>删除运行“{question}”（{run}）？

它的时间线、检查点和审批将被永久删除。它写入的文件仍保留在产出文件夹中。</translation>
    </message>
</context>
<context>
    <name>CoreWords</name>
    <message>
        <source>pending</source>
        <translation>待决</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>superseded</source>
        <translation>已被取代</translation>
    </message>
    <message>
        <source>consumed</source>
        <translation>已执行</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>changes_requested</source>
        <translation>已要求修改</translation>
    </message>
    <message>
        <source>created</source>
        <translation>未开始</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>waiting_approval</source>
        <translation>等待审批</translation>
    </message>
    <message>
        <source>waiting_input</source>
        <translation>等待回答</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>interaction</source>
        <translation>交互</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>write</source>
        <translation>写入</translation>
    </message>
    <message>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>acceptEdits</source>
        <translation>自动接受编辑</translation>
    </message>
    <message>
        <source>dangerouslySkipPermissions</source>
        <translation>跳过权限（危险）</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>离线（内置）</translation>
    </message>
    <message>
        <source>scripted</source>
        <translation>脚本模型</translation>
    </message>
    <message>
        <source>compromised</source>
        <translation>被攻破的模型</translation>
    </message>
    <message>
        <source>answers a request for changes: the person decides again</source>
        <translation>回应了修改要求：由人再次决定</translation>
    </message>
    <message>
        <source>dangerouslySkipPermissions asks for nothing</source>
        <translation>跳过权限（危险）模式不询问任何操作</translation>
    </message>
    <message>
        <source>acceptEdits approves writes inside the artifacts folder</source>
        <translation>自动接受编辑模式批准产出文件夹内的写入</translation>
    </message>
    <message>
        <source>writes a file: a person approves every write</source>
        <translation>写入文件：每次写入都由人批准</translation>
    </message>
    <message>
        <source>reaches the network: a person approves it</source>
        <translation>访问网络：由人批准</translation>
    </message>
    <message>
        <source>a tool of an MCP server that may change something: a person approves it</source>
        <translation>MCP 服务器的工具可能改变某些内容：须由人批准</translation>
    </message>
    <message>
        <source>outcome unknown: the call reached its server, no answer was recorded</source>
        <translation>结果未知：调用已到达服务器，但没有记录到回应</translation>
    </message>
    <message>
        <source>approved as edited</source>
        <translation>按修改后的内容批准</translation>
    </message>
    <message>
        <source>cancelled by a person</source>
        <translation>由人取消</translation>
    </message>
    <message>
        <source>cancelled while running</source>
        <translation>在运行中被取消</translation>
    </message>
    <message>
        <source>a write was rejected</source>
        <translation>有一次写入被拒绝</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型轮次</translation>
    </message>
    <message>
        <source>tools</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>continue with the answer</source>
        <translation>带着回答继续</translation>
    </message>
    <message>
        <source>wait for an answer</source>
        <translation>等待回答</translation>
    </message>
    <message>
        <source>revise {tool}</source>
        <translation>修改 {tool}</translation>
    </message>
    <message>
        <source>run {tool}</source>
        <translation>运行 {tool}</translation>
    </message>
    <message>
        <source>wait for approval of {tool}</source>
        <translation>等待审批 {tool}</translation>
    </message>
    <message>
        <source>this run</source>
        <translation>此次运行</translation>
    </message>
    <message>
        <source>every run in this home</source>
        <translation>此主目录中的所有运行</translation>
    </message>
    <message>
        <source>{tool} of files under {folder}/ for {where}</source>
        <translation>对 {folder}/ 下文件的 {tool}（适用于{where}）</translation>
    </message>
    <message>
        <source>{tool} ({what}) for {where}</source>
        <translation>{tool}（{what}，适用于{where}）</translation>
    </message>
    <message>
        <source>{tier} tools never ask</source>
        <translation>{tier}类工具从不询问</translation>
    </message>
    <message>
        <source>remembered: {rule}</source>
        <translation>已记住：{rule}</translation>
    </message>
    <message>
        <source>edited by {reviewer}: {reason}</source>
        <translation>由 {reviewer} 修改：{reason}</translation>
    </message>
    <message>
        <source>A person asked to revert approval {id}: remove the file it created.</source>
        <translation>有人要求撤销审批 {id}：删除它创建的文件。</translation>
    </message>
    <message>
        <source>A person asked to revert approval {id}: put back its content.</source>
        <translation>有人要求撤销审批 {id}：恢复原来的内容。</translation>
    </message>
</context>
<context>
    <name>CorpusFolderPage</name>
    <message>
        <source>The home&apos;s corpus folder</source>
        <translation>主目录的资料库文件夹</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Corpus folder</source>
        <translation>资料库文件夹</translation>
    </message>
    <message>
        <source>Runs read the documents of this folder unless they name another one, and the Corpus tab lists them. Leave it empty for the home&apos;s corpus folder.</source>
        <translation>运行读取此文件夹中的文档（除非运行另行指定文件夹），“资料库”标签页列出这些文档。留空则使用主目录的资料库文件夹。</translation>
    </message>
    <message>
        <source>Corpus folder {folder}: {why}</source>
        <translation>资料库文件夹 {folder}：{why}</translation>
    </message>
    <message>
        <source>Choose the corpus folder</source>
        <translation>选择资料库文件夹</translation>
    </message>
</context>
<context>
    <name>CorpusKeeper</name>
    <message>
        <source>Changes to the corpus folder are not followed: {why} Press Reindex after changing files.</source>
        <translation>资料库文件夹的变化未被跟踪：{why} 更改文件后请按“重新索引”。</translation>
    </message>
    <message>
        <source>The corpus could not be indexed. {why}</source>
        <translation>资料库无法建立索引。{why}</translation>
    </message>
</context>
<context>
    <name>CorpusPanel</name>
    <message>
        <source>needs a password</source>
        <translation>需要密码</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>has no text</source>
        <translation>没有文本</translation>
    </message>
    <message>
        <source>too large</source>
        <translation>过大</translation>
    </message>
    <message>
        <source>name has hidden characters</source>
        <translation>文件名含有隐藏字符</translation>
    </message>
    <message>
        <source>indexed</source>
        <translation>已索引</translation>
    </message>
    <message>
        <source>not indexed yet</source>
        <translation>尚未索引</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>The corpus folder has no documents yet: put PDF, Word, OpenDocument, HTML, EPUB, RTF, Markdown or text files in it.</source>
        <translation>资料库文件夹中还没有文档：请放入 PDF、Word、OpenDocument、HTML、EPUB、RTF、Markdown 或文本文件。</translation>
    </message>
    <message>
        <source>{n} indexed</source>
        <translation>{n} 个已索引</translation>
    </message>
    <message>
        <source>{n} not indexed yet</source>
        <translation>{n} 个尚未索引</translation>
    </message>
    <message>
        <source>{n} failed</source>
        <translation>{n} 个失败</translation>
    </message>
    <message>
        <source>{n} document: {counts}</source>
        <translation>{n} 个文档：{counts}</translation>
    </message>
    <message>
        <source>{n} documents: {counts}</source>
        <translation>{n} 个文档：{counts}</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>No reason was recorded.</source>
        <translation>未记录原因。</translation>
    </message>
    <message>
        <source>{n} hidden passage left out</source>
        <translation>略去 {n} 处隐藏文字</translation>
    </message>
    <message>
        <source>{n} hidden passages left out</source>
        <translation>略去 {n} 处隐藏文字</translation>
    </message>
    <message>
        <source>{n} page read by OCR</source>
        <translation>{n} 页经 OCR 识别</translation>
    </message>
    <message>
        <source>{n} pages read by OCR</source>
        <translation>{n} 页经 OCR 识别</translation>
    </message>
    <message>
        <source>{n} page</source>
        <translation>{n} 页</translation>
    </message>
    <message>
        <source>{n} pages</source>
        <translation>{n} 页</translation>
    </message>
    <message>
        <source>Reading the corpus…</source>
        <translation>正在读取资料库…</translation>
    </message>
    <message>
        <source>Reindex</source>
        <translation>重新索引</translation>
    </message>
    <message>
        <source>Read the corpus folder again for new and changed files</source>
        <translation>重新读取资料库文件夹，查找新增和更改的文件</translation>
    </message>
    <message>
        <source>Folder of the selected run</source>
        <translation>所选运行的文件夹</translation>
    </message>
    <message>
        <source>Corpus folder (Settings)</source>
        <translation>资料库文件夹（设置）</translation>
    </message>
    <message>
        <source>Looking for new and changed files…</source>
        <translation>正在查找新增和更改的文件…</translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation>{done} / {total}</translation>
    </message>
    <message>
        <source>Reading {file}: page {page} by OCR…</source>
        <translation>正在读取 {file}：OCR 识别第 {page} 页…</translation>
    </message>
    <message>
        <source>Read {file}</source>
        <translation>已读取 {file}</translation>
    </message>
    <message>
        <source>Finishing…</source>
        <translation>即将完成…</translation>
    </message>
    <message>
        <source>{failed} — the other documents are not affected</source>
        <translation>{failed} — 其他文档不受影响</translation>
    </message>
    <message>
        <source>Could not be read ({n})</source>
        <translation>无法读取（{n}）</translation>
    </message>
</context>
<context>
    <name>CrashDemos</name>
    <message>
        <source>Crash demo</source>
        <translation>崩溃演示</translation>
    </message>
    <message>
        <source>&amp;Crash</source>
        <translation>崩溃(&amp;C)</translation>
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
        <translation>

重新打开 BriefDesk 即可看到被中断的运行并恢复它：不会重复任何副作用。</translation>
    </message>
    <message>
        <source>BriefDesk resumes the selected interrupted run {question} (mode: {mode}) and kills itself (SIGKILL) at its next tool call.</source>
        <translation>BriefDesk 将恢复所选的被中断运行 {question}（模式：{mode}），并在其下一次工具调用时自行终止（SIGKILL）。</translation>
    </message>
    <message>
        <source>BriefDesk starts the question in the box as a new run and kills itself (SIGKILL) at its first tool call.

Question: {question}
Mode: {mode}</source>
        <translation>BriefDesk 将把输入框中的问题作为新的运行启动，并在其第一次工具调用时自行终止（SIGKILL）。

问题：{question}
模式：{mode}</translation>
    </message>
    <message>
        <source>BriefDesk resumes the selected interrupted run {question} (mode: {mode}) and kills itself (SIGKILL) right after its brief is written, before the write is confirmed. If the write needs an approval, it waits for you as usual.</source>
        <translation>BriefDesk 将恢复所选的被中断运行 {question}（模式：{mode}），并在简报写入之后、写入被确认之前自行终止（SIGKILL）。如果这次写入需要审批，它会照常等待你的决定。</translation>
    </message>
    <message>
        <source>BriefDesk starts the question in the box as a new run in mode {mode} (now shown in the Mode box): the brief is written without asking anyone. Right after the write, before it is confirmed, BriefDesk kills itself (SIGKILL).

Question: {question}
Mode: {mode}</source>
        <translation>BriefDesk 将以“{mode}”模式（现已显示在“模式”框中）把输入框中的问题作为新的运行启动：简报的写入无需询问任何人。写入之后、确认之前，BriefDesk 会自行终止（SIGKILL）。

问题：{question}
模式：{mode}</translation>
    </message>
    <message>
        <source>

{n} proposal waiting for a person still waits for you: this demo approves nothing.</source>
        <translation>

有 {n} 个等待人工审批的提议仍在等你：此演示不会批准任何内容。</translation>
    </message>
    <message>
        <source>

{n} proposals waiting for a person still wait for you: this demo approves nothing.</source>
        <translation>

有 {n} 个等待人工审批的提议仍在等你：此演示不会批准任何内容。</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>⋯ {n} unchanged line</source>
        <translation>⋯ {n} 行未改动</translation>
    </message>
    <message>
        <source>⋯ {n} unchanged lines</source>
        <translation>⋯ {n} 行未改动</translation>
    </message>
    <message>
        <source>{n} more rows not shown.</source>
        <translation>还有 {n} 行未显示。</translation>
    </message>
    <message>
        <source>Identical: approving changes nothing</source>
        <translation>完全相同：批准不会改变任何内容</translation>
    </message>
    <message>
        <source>The proposed content is exactly what the file on disk holds ({n} line).</source>
        <translation>提议的内容与磁盘上的文件完全一致（{n} 行）。</translation>
    </message>
    <message>
        <source>The proposed content is exactly what the file on disk holds ({n} lines).</source>
        <translation>提议的内容与磁盘上的文件完全一致（{n} 行）。</translation>
    </message>
    <message>
        <source>current file</source>
        <translation>当前文件</translation>
    </message>
    <message>
        <source>proposed</source>
        <translation>提议的内容</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排</translation>
    </message>
    <message>
        <source>Unified</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Show all unchanged lines</source>
        <translation>显示所有未改动的行</translation>
    </message>
    <message>
        <source>new file: every line is added</source>
        <translation>新文件：每一行都是新增的</translation>
    </message>
    <message>
        <source>{added} added &amp;nbsp;{removed} removed &amp;nbsp;&lt;i&gt;{note}&lt;/i&gt;</source>
        <translation>新增 {added} &amp;nbsp;删除 {removed} &amp;nbsp;&lt;i&gt;{note}&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Left:&lt;/b&gt; {old} &amp;nbsp;&amp;nbsp; &lt;b&gt;Right:&lt;/b&gt; {new}</source>
        <translation>&lt;b&gt;左：&lt;/b&gt;{old} &amp;nbsp;&amp;nbsp; &lt;b&gt;右：&lt;/b&gt;{new}</translation>
    </message>
</context>
<context>
    <name>EventText</name>
    <message>
        <source>Run started</source>
        <translation>运行开始</translation>
    </message>
    <message>
        <source>Resumed</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>Crash found</source>
        <translation>发现崩溃</translation>
    </message>
    <message>
        <source>Run finished</source>
        <translation>运行结束</translation>
    </message>
    <message>
        <source>Model turn</source>
        <translation>模型轮次</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation>工具结果</translation>
    </message>
    <message>
        <source>Approval asked</source>
        <translation>请求审批</translation>
    </message>
    <message>
        <source>Approval decided</source>
        <translation>审批已决定</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>已阻止</translation>
    </message>
    <message>
        <source>Outcome unknown</source>
        <translation>结果未知</translation>
    </message>
    <message>
        <source>Reconciled</source>
        <translation>已核对</translation>
    </message>
    <message>
        <source>Artifact confirmed</source>
        <translation>产出已确认</translation>
    </message>
    <message>
        <source>Unexpected write</source>
        <translation>未经批准的写入</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Retrying</source>
        <translation>重试中</translation>
    </message>
    <message>
        <source>Writing</source>
        <translation>撰写中</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Checkpoint {boundary}</source>
        <translation>检查点 {boundary}</translation>
    </message>
    <message>
        <source>{n} ms</source>
        <translation>{n} 毫秒</translation>
    </message>
    <message>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <source>{m} min {s} s</source>
        <translation>{m} 分 {s} 秒</translation>
    </message>
    <message>
        <source>{text} ({n} chars)</source>
        <translation>{text}（{n} 个字符）</translation>
    </message>
    <message>
        <source>{n} hits</source>
        <translation>{n} 条命中</translation>
    </message>
    <message>
        <source>{n} chars</source>
        <translation>{n} 个字符</translation>
    </message>
    <message>
        <source>truncated</source>
        <translation>已截断</translation>
    </message>
    <message>
        <source>{agent} · {session} · {folder}</source>
        <translation>{agent} · {session} · {folder}</translation>
    </message>
    <message>
        <source>“{question}” · model {model} · mode {mode}</source>
        <translation>“{question}” · 模型 {model} · 模式 {mode}</translation>
    </message>
    <message>
        <source>Resumed from the latest checkpoint · model {model}</source>
        <translation>从最新的检查点恢复 · 模型 {model}</translation>
    </message>
    <message>
        <source>The previous process (pid {pid}) died mid-run</source>
        <translation>上一个进程（pid {pid}）在运行中途终止</translation>
    </message>
    <message>
        <source> (by {who})</source>
        <translation>（由 {who}）</translation>
    </message>
    <message>
        <source>Finished: {status}</source>
        <translation>结束：{status}</translation>
    </message>
    <message>
        <source>Turn {n}</source>
        <translation>第 {n} 轮</translation>
    </message>
    <message>
        <source>final answer</source>
        <translation>最终回答</translation>
    </message>
    <message>
        <source>#{n} · next: {step}</source>
        <translation>#{n} · 下一步：{step}</translation>
    </message>
    <message>
        <source>MCP server {server} · </source>
        <translation>MCP 服务器 {server} · </translation>
    </message>
    <message>
        <source>Changes requested: {note}</source>
        <translation>已要求修改：{note}</translation>
    </message>
    <message>
        <source>Changes requested</source>
        <translation>已要求修改</translation>
    </message>
    <message>
        <source>not executed · </source>
        <translation>未执行 · </translation>
    </message>
    <message>
        <source>approval needed</source>
        <translation>需要审批</translation>
    </message>
    <message>
        <source>{id} {status} by {who}</source>
        <translation>{id} {status}（{who}）</translation>
    </message>
    <message>
        <source>call {call} · key {key}</source>
        <translation>调用 {call} · 幂等键 {key}</translation>
    </message>
    <message>
        <source>{n} files nobody approved were already in {path}</source>
        <translation>{path} 中已有 {n} 个未经批准的文件</translation>
    </message>
    <message>
        <source> · written {n}×</source>
        <translation> · 写入 {n} 次</translation>
    </message>
    <message>
        <source>Turn {turn} · attempt {attempt} failed: {reason} · next try in {wait}</source>
        <translation>第 {turn} 轮 · 第 {attempt} 次尝试失败：{reason} · {wait}后重试</translation>
    </message>
    <message>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>无结果</translation>
    </message>
    <message>
        <source>degraded</source>
        <translation>降级</translation>
    </message>
    <message>
        <source>fallback</source>
        <translation>后备</translation>
    </message>
    <message>
        <source>provider_error</source>
        <translation>服务端错误</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>settled</source>
        <translation>已核对</translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>retrying</source>
        <translation>重试中</translation>
    </message>
    <message>
        <source>changes requested</source>
        <translation>已要求修改</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>Main window</source>
        <translation>主窗口</translation>
    </message>
    <message>
        <source>Approval dialog</source>
        <translation>审批对话框</translation>
    </message>
    <message>
        <source>In the {part}</source>
        <translation>在 {part} 中</translation>
    </message>
    <message>
        <source>{readme} (more in {docs})</source>
        <translation>{readme}（更多内容见 {docs}）</translation>
    </message>
    <message>
        <source>Documentation: {where}</source>
        <translation>文档：{where}</translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>No viewer could open the documentation. It is at {where}.</source>
        <translation>没有程序能打开文档。文档位于 {where}。</translation>
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
        <translation>文件</translation>
    </message>
    <message>
        <source>The run&apos;s artifacts</source>
        <translation>运行的产出</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Run details</source>
        <translation>运行详情</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>资料库</translation>
    </message>
    <message>
        <source>The documents runs read</source>
        <translation>运行读取的文档</translation>
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
        <source>&amp;Suggest a rule…</source>
        <translation>建议规则(&amp;S)…</translation>
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
        <translation>就绪</translation>
    </message>
    <message>
        <source>Loading the timeline…</source>
        <translation>正在载入时间线…</translation>
    </message>
    <message>
        <source>Select a run on the left, or press Run (Ctrl+Enter) to start one.</source>
        <translation>在左侧选择一个运行，或按“运行”（Ctrl+Enter）开始一个新的运行。</translation>
    </message>
    <message>
        <source>No events yet: they appear here as the run goes.</source>
        <translation>尚无事件：运行进行时事件会显示在这里。</translation>
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
        <translation>● 智能体工作中</translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>未选择运行</translation>
    </message>
    <message>
        <source>Type a question first.</source>
        <translation>请先输入一个问题。</translation>
    </message>
    <message>
        <source>Take over this run?</source>
        <translation>接管此运行？</translation>
    </message>
    <message>
        <source>&amp;Take over and resume</source>
        <translation>接管并恢复(&amp;T)</translation>
    </message>
    <message>
        <source>Delete this run?</source>
        <translation>删除此运行？</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Agents</source>
        <translation>智能体</translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
    <message>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>may change things</source>
        <translation>可能修改内容</translation>
    </message>
    <message>
        <source>destructive</source>
        <translation>破坏性</translation>
    </message>
    <message>
        <source>not destructive</source>
        <translation>非破坏性</translation>
    </message>
    <message>
        <source>idempotent</source>
        <translation>幂等</translation>
    </message>
    <message>
        <source>not idempotent</source>
        <translation>非幂等</translation>
    </message>
    <message>
        <source>reaches outside</source>
        <translation>访问外部</translation>
    </message>
    <message>
        <source>closed world</source>
        <translation>封闭环境</translation>
    </message>
    <message>
        <source>MCP servers are used only by a remote (OpenAI-compatible) model: with the offline model (Model ▸ Offline) a run does not call their tools.</source>
        <translation>MCP 服务器只由远程（OpenAI 兼容）模型使用：使用离线模型（模型 ▸ 离线）时，运行不会调用它们的工具。</translation>
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
        <source>Granted folders</source>
        <translation>授权文件夹</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>沙箱</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>loopback only</source>
        <translation>仅本地回环</translation>
    </message>
    <message>
        <source>sandboxed</source>
        <translation>在沙箱中</translation>
    </message>
    <message>
        <source>unconfined</source>
        <translation>不受限制</translation>
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
        <translation>{source}，第 {page} 页</translation>
    </message>
    <message>
        <source>Not found — {title}</source>
        <translation>未找到 — {title}</translation>
    </message>
    <message>
        <source>Open in system viewer</source>
        <translation>用系统查看器打开</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>{title}: not found</source>
        <translation>{title}：未找到</translation>
    </message>
    <message>
        <source>The text the index holds of this page; the document itself is in {folder}.</source>
        <translation>索引中保存的此页文本；文档本身位于 {folder}。</translation>
    </message>
    <message>
        <source>The text the index holds of this document; the document itself is in {folder}.</source>
        <translation>索引中保存的此文档文本；文档本身位于 {folder}。</translation>
    </message>
    <message>
        <source>No file manager opened the folder {path}: open it yourself.</source>
        <translation>没有文件管理器打开文件夹 {path}：请自行打开。</translation>
    </message>
</context>
<context>
    <name>PersonPrompts</name>
    <message>
        <source>“{question}” waits for approval of {tool} → {target}</source>
        <translation>“{question}”正在等待审批 {tool} → {target}</translation>
    </message>
    <message>
        <source>{session} waits for approval of {tool} → {target}</source>
        <translation>{session} 等待审批 {tool} → {target}</translation>
    </message>
    <message>
        <source>Review approval…</source>
        <translation>审阅审批请求…</translation>
    </message>
    <message>
        <source>“{question}” waits for an answer: {asked}</source>
        <translation>“{question}”正在等待回答：{asked}</translation>
    </message>
    <message>
        <source>Answer…</source>
        <translation>回答…</translation>
    </message>
    <message>
        <source>BriefDesk needs you</source>
        <translation>BriefDesk 需要你处理</translation>
    </message>
    <message>
        <source>Decided elsewhere: “{question}” was {how}. Its dialog closed.</source>
        <translation>已在别处决定：“{question}”{how}。其对话框已关闭。</translation>
    </message>
    <message>
        <source>Approve this action?</source>
        <translation>批准此操作？</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
    <message>
        <source>The agent asks</source>
        <translation>智能体提问</translation>
    </message>
</context>
<context>
    <name>PlainErrors</name>
    <message>
        <source>That value is not valid.</source>
        <translation>该值无效。</translation>
    </message>
    <message>
        <source>The agent asked for a tool that does not exist.</source>
        <translation>智能体请求了一个不存在的工具。</translation>
    </message>
    <message>
        <source>It no longer exists.</source>
        <translation>它已不存在。</translation>
    </message>
    <message>
        <source>That path is outside the folder the agent may use.</source>
        <translation>该路径在智能体可用的文件夹之外。</translation>
    </message>
    <message>
        <source>Writing there is not allowed.</source>
        <translation>不允许写入该位置。</translation>
    </message>
    <message>
        <source>The network is closed to the agent for that address.</source>
        <translation>该地址的网络对智能体关闭。</translation>
    </message>
    <message>
        <source>The proposal expired before anyone decided.</source>
        <translation>在有人做出决定之前，提议已过期。</translation>
    </message>
    <message>
        <source>An edit replaced this proposal with a newer version.</source>
        <translation>一次修改用更新的版本替换了此提议。</translation>
    </message>
    <message>
        <source>Someone already decided this proposal.</source>
        <translation>已有人对此提议做出了决定。</translation>
    </message>
    <message>
        <source>The file changed on disk since the proposal was made.</source>
        <translation>提出提议之后，磁盘上的文件已改变。</translation>
    </message>
    <message>
        <source>Another process is writing to that folder; nothing was written. Try again.</source>
        <translation>另一个进程正在写入该文件夹；未写入任何内容。请重试。</translation>
    </message>
    <message>
        <source>The model asked for too many actions at once; none of them ran.</source>
        <translation>模型一次请求了过多操作；它们都没有执行。</translation>
    </message>
    <message>
        <source>The model asked for the same action twice; the second did not run.</source>
        <translation>模型两次请求了同一操作；第二次没有执行。</translation>
    </message>
    <message>
        <source>This run was saved by another version and cannot continue here.</source>
        <translation>此运行由另一个版本保存，无法在此继续。</translation>
    </message>
    <message>
        <source>Another process is driving this run right now.</source>
        <translation>另一个进程正在驱动此运行。</translation>
    </message>
    <message>
        <source>The run reached one of its limits.</source>
        <translation>运行达到了某项预算上限。</translation>
    </message>
    <message>
        <source>The database is busy in another process; try again.</source>
        <translation>数据库正被另一个进程占用；请重试。</translation>
    </message>
    <message>
        <source>The database is damaged.</source>
        <translation>数据库已损坏。</translation>
    </message>
    <message>
        <source>The home folder cannot be written.</source>
        <translation>主目录无法写入。</translation>
    </message>
    <message>
        <source>The database was made by a newer BriefDesk.</source>
        <translation>该数据库由更新版本的 BriefDesk 创建。</translation>
    </message>
    <message>
        <source>The system keyring cannot be used. Start or unlock your keyring, or set {variable} to give the key without one.</source>
        <translation>无法使用系统密钥环。请启动或解锁系统密钥环，或设置 {variable}，不经密钥环提供密钥。</translation>
    </message>
    <message>
        <source>No API key is stored.</source>
        <translation>尚未保存 API 密钥。</translation>
    </message>
    <message>
        <source>The run is not waiting for that any more.</source>
        <translation>运行已不再等待此项。</translation>
    </message>
    <message>
        <source>The run has not finished yet.</source>
        <translation>运行尚未结束。</translation>
    </message>
    <message>
        <source>The model endpoint did not answer usefully.</source>
        <translation>模型端点没有给出有效回答。</translation>
    </message>
    <message>
        <source>A person already rejected this action.</source>
        <translation>已有人拒绝了此操作。</translation>
    </message>
    <message>
        <source>This system cannot sandbox the agent&apos;s tools.</source>
        <translation>本系统无法将智能体的工具放入沙箱。</translation>
    </message>
    <message>
        <source>The disk is full; free some space, then resume.</source>
        <translation>磁盘已满；请释放一些空间后再恢复。</translation>
    </message>
    <message>
        <source>The database server cannot be reached.</source>
        <translation>无法连接数据库服务器。</translation>
    </message>
    <message>
        <source>Someone already answered this question.</source>
        <translation>已有人回答了这个问题。</translation>
    </message>
    <message>
        <source>Another desk is driving this run.</source>
        <translation>另一个工位正在驱动此运行。</translation>
    </message>
    <message>
        <source>You are not allowed to decide this.</source>
        <translation>你无权对此做出决定。</translation>
    </message>
    <message>
        <source>The MCP server could not be started, or it stopped answering.</source>
        <translation>MCP 服务器无法启动，或已停止响应。</translation>
    </message>
    <message>
        <source>The tool took too long to answer.</source>
        <translation>工具响应超时。</translation>
    </message>
    <message>
        <source>The agent runtime stopped unexpectedly.</source>
        <translation>智能体运行时意外停止。</translation>
    </message>
    <message>
        <source>Something went wrong.</source>
        <translation>出现了问题。</translation>
    </message>
    <message>
        <source>connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <source>the connection was dropped</source>
        <translation>连接已断开</translation>
    </message>
    <message>
        <source>it took too long to answer</source>
        <translation>响应超时</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>no such file or folder</source>
        <translation>没有该文件或文件夹</translation>
    </message>
    <message>
        <source>that is a folder, not a file</source>
        <translation>那是文件夹，不是文件</translation>
    </message>
    <message>
        <source>{error} BriefDesk keeps trying: this note goes away, and runs stopped by it continue, once the database answers again.</source>
        <translation>{error} BriefDesk 会持续重试：一旦数据库恢复响应，此提示就会消失，因此而停下的运行也会继续。</translation>
    </message>
    <message>
        <source>Something went wrong: {what}.</source>
        <translation>出现了问题：{what}。</translation>
    </message>
    <message>
        <source>Something went wrong: {what}</source>
        <translation>出现了问题：{what}</translation>
    </message>
    <message>
        <source>the environment (BRIEFDESK_OPENAI_API_KEY)</source>
        <translation>环境变量（BRIEFDESK_OPENAI_API_KEY）</translation>
    </message>
    <message>
        <source>the Secret Service keyring</source>
        <translation>Secret Service 密钥环</translation>
    </message>
    <message>
        <source>KDE Wallet</source>
        <translation>KDE 钱包</translation>
    </message>
    <message>
        <source>the macOS Keychain</source>
        <translation>macOS 钥匙串</translation>
    </message>
    <message>
        <source>the Windows Credential Manager</source>
        <translation>Windows 凭据管理器</translation>
    </message>
    <message>
        <source>the system keyring</source>
        <translation>系统密钥环</translation>
    </message>
</context>
<context>
    <name>PricesBox</name>
    <message>
        <source>Input, $ per 1M tokens</source>
        <translation>输入，每百万 token 美元</translation>
    </message>
    <message>
        <source>Output, $ per 1M tokens</source>
        <translation>输出，每百万 token 美元</translation>
    </message>
    <message>
        <source>Prices (for a run&apos;s cost)</source>
        <translation>价格（用于计算运行费用）</translation>
    </message>
    <message>
        <source>not set: the cost shows as unknown</source>
        <translation>未设置：费用显示为未知</translation>
    </message>
    <message>
        <source>The setting {key}; the offline model always costs 0.</source>
        <translation>设置项 {key}；离线模型的费用始终为 0。</translation>
    </message>
    <message>
        <source>A run&apos;s usage shows its requests and tokens; with both prices set, a remote run shows its cost too. The offline model costs nothing.</source>
        <translation>运行的用量显示其请求数和 token 数；两个价格都设置后，远程运行还会显示费用。离线模型不产生费用。</translation>
    </message>
</context>
<context>
    <name>QuestionDialog</name>
    <message>
        <source>The agent asks a question — BriefDesk</source>
        <translation>智能体提出了一个问题 — BriefDesk</translation>
    </message>
    <message>
        <source>Run &lt;b&gt;{run}&lt;/b&gt; is waiting for your answer:</source>
        <translation>运行 &lt;b&gt;{run}&lt;/b&gt; 正在等待你的回答：</translation>
    </message>
    <message>
        <source>Your answer (Ctrl+Enter sends it)</source>
        <translation>你的回答（Ctrl+Enter 发送）</translation>
    </message>
    <message>
        <source>Cancelling ends the run; it cannot be resumed. Closing this window keeps it waiting.</source>
        <translation>取消会结束运行，且无法恢复。关闭此窗口则运行继续等待。</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>取消运行</translation>
    </message>
    <message>
        <source>Answer later</source>
        <translation>稍后回答</translation>
    </message>
    <message>
        <source>Send answer  (Ctrl+Enter)</source>
        <translation>发送回答  (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>This question was settled elsewhere: the run is now {status}.</source>
        <translation>这个问题已在别处处理：运行现在的状态是{status}。</translation>
    </message>
</context>
<context>
    <name>Records</name>
    <message>
        <source>blocked</source>
        <translation>已阻止</translation>
    </message>
    <message>
        <source>decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>{name} (person)</source>
        <translation>{name}（人员）</translation>
    </message>
    <message>
        <source>rule {name}</source>
        <translation>规则 {name}</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>policy ({mode} mode)</source>
        <translation>策略（{mode}模式）</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>生效中</translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Folder (and everything under it)</source>
        <translation>文件夹（及其下所有内容）</translation>
    </message>
    <message>
        <source>Applies to</source>
        <translation>适用于</translation>
    </message>
    <message>
        <source>Remembered by</source>
        <translation>设定者</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>起始时间</translation>
    </message>
    <message>
        <source>run {run} only</source>
        <translation>仅运行 {run}</translation>
    </message>
    <message>
        <source>every run in this home</source>
        <translation>此主目录中的所有运行</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>What</source>
        <translation>事项</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>人员</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Scope (shown whole)</source>
        <translation>范围（完整显示）</translation>
    </message>
    <message>
        <source>Would have approved</source>
        <translation>本会批准的数量</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>提议</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Approved by</source>
        <translation>批准者</translation>
    </message>
    <message>
        <source>Allow {tool} without asking on: {scope}</source>
        <translation>对以下范围允许 {tool} 无需询问：{scope}</translation>
    </message>
    <message>
        <source>Allow {tool} of {agent} without asking on: {scope}</source>
        <translation>对以下范围允许 {agent} 的 {tool} 无需询问：{scope}</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
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
运行“{question}”将结束，状态为“已取消”。</translation>
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
        <source>Always allow this tool</source>
        <translation>始终允许此工具</translation>
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
        <translation>已记住的规则</translation>
    </message>
    <message>
        <source>Each rule lets a tool act on files under a folder without asking a person again. Revoke a rule to be asked again.</source>
        <translation>每条规则允许一个工具对某文件夹下的文件执行操作，而无需再询问人。撤销规则后会重新询问。</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在载入…</translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation>撤销(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Suggest a rule…</source>
        <translation>建议规则(&amp;S)…</translation>
    </message>
    <message>
        <source>No remembered decisions yet.</source>
        <translation>尚无已记住的规则。</translation>
    </message>
    <message>
        <source>{active} active of {total}</source>
        <translation>共 {total} 条，{active} 条生效</translation>
    </message>
    <message>
        <source>Scope: {rule}.</source>
        <translation>范围：{rule}。</translation>
    </message>
    <message>
        <source>Revoke this rule?</source>
        <translation>撤销此规则？</translation>
    </message>
    <message>
        <source>From now on a person is asked again before: {rule}.</source>
        <translation>从现在起，执行以下操作前将再次询问人：{rule}。</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>撤销</translation>
    </message>
</context>
<context>
    <name>RunDelegate</name>
    <message>
        <source>✖ {n} blocked</source>
        <translation>✖ {n} 次被阻止</translation>
    </message>
    <message>
        <source>on {desk} · {rest}</source>
        <translation>工位 {desk} · {rest}</translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <source>How do checkpoints make agent runs durable?</source>
        <translation>检查点如何让智能体的运行经得起崩溃？</translation>
    </message>
    <message>
        <source>Ask a research question about your corpus…</source>
        <translation>就你的资料库提一个研究问题…</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Offline (built in)</source>
        <translation>离线（内置）</translation>
    </message>
    <message>
        <source>OpenAI (see Settings)</source>
        <translation>OpenAI（见设置）</translation>
    </message>
    <message>
        <source>Default: ask before writes</source>
        <translation>默认：写入前询问</translation>
    </message>
    <message>
        <source>Accept edits</source>
        <translation>自动接受编辑</translation>
    </message>
    <message>
        <source>Skip permissions (dangerous)</source>
        <translation>跳过权限（危险）</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>▶  Run</source>
        <translation>▶  运行</translation>
    </message>
    <message>
        <source>Start a run with this question (Ctrl+Enter)</source>
        <translation>用这个问题开始一次运行（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>■  Stop</source>
        <translation>■  停止</translation>
    </message>
    <message>
        <source>Cancel the selected run (Ctrl+.)</source>
        <translation>取消所选运行（Ctrl+.）</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>资料库</translation>
    </message>
    <message>
        <source>Default: the corpus folder in Settings</source>
        <translation>默认：设置中的资料库文件夹</translation>
    </message>
    <message>
        <source>Choose the corpus folder for this run</source>
        <translation>为此次运行选择资料库文件夹</translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation>产出</translation>
    </message>
    <message>
        <source>Default: the home&apos;s artifacts folder</source>
        <translation>默认：主目录的产出文件夹</translation>
    </message>
    <message>
        <source>Choose the artifacts folder for this run</source>
        <translation>为此次运行选择产出文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
</context>
<context>
    <name>RunState</name>
    <message>
        <source>Ready to continue</source>
        <translation>可以继续</translation>
    </message>
    <message>
        <source>Only a finished run can be deleted; cancel it first.</source>
        <translation>只能删除已结束的运行；请先取消它。</translation>
    </message>
    <message>
        <source>Delete the selected run: its timeline, checkpoints and approvals, for good.</source>
        <translation>永久删除所选运行：包括其时间线、检查点和审批。</translation>
    </message>
    <message>
        <source>Not started: Run was just pressed, or a window just opened. Press Run again to start another run.</source>
        <translation>未开始：刚刚已按过“运行”，或刚打开了一个窗口。再按一次“运行”即可开始另一个运行。</translation>
    </message>
    <message>
        <source>Select a finished run to delete it.</source>
        <translation>选择一个已结束的运行以删除它。</translation>
    </message>
</context>
<context>
    <name>RunSummary</name>
    <message>
        <source>Select a run to see its details.</source>
        <translation>选择一个运行以查看其详情。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Desk</source>
        <translation>工位</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>资料库</translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation>产出</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <source>Waiting for approval: </source>
        <translation>等待审批：</translation>
    </message>
    <message>
        <source>Question for you: {question}</source>
        <translation>给你的问题：{question}</translation>
    </message>
</context>
<context>
    <name>RunsList</name>
    <message>
        <source>No runs yet.

Press Run to start one. Runs started with briefdesk-cli on this home appear here too, live.</source>
        <translation>尚无运行。

按“运行”开始一个。在此主目录上用 briefdesk-cli 启动的运行也会实时显示在这里。</translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <source>{status} · {n} blocked</source>
        <translation>{status} · {n} 次被阻止</translation>
    </message>
    <message>
        <source> · on desk {desk}</source>
        <translation> · 工位 {desk}</translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>All runs: {usage}</source>
        <translation>所有运行：{usage}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Offline (built in, no network)</source>
        <translation>离线（内置，无网络）</translation>
    </message>
    <message>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <source>OpenAI-compatible endpoint</source>
        <translation>兼容 OpenAI 的端点</translation>
    </message>
    <message>
        <source>Chat Completions (most compatible servers)</source>
        <translation>Chat Completions（大多数兼容服务器）</translation>
    </message>
    <message>
        <source>Responses (OpenAI)</source>
        <translation>Responses（OpenAI）</translation>
    </message>
    <message>
        <source>Default: ask before every write</source>
        <translation>默认：每次写入前询问</translation>
    </message>
    <message>
        <source>Accept edits: writes inside the artifacts folder run</source>
        <translation>自动接受编辑：产出文件夹内的写入直接执行</translation>
    </message>
    <message>
        <source>Skip permissions (dangerous)</source>
        <translation>跳过权限（危险）</translation>
    </message>
    <message>
        <source>Several desks can share one PostgreSQL database: each desk then sees every run and proposal of the team, and a reviewer decides from any desk. The corpus, long-term memory and these settings stay on this computer; the database password stays in the system keyring, never in a file.</source>
        <translation>多个工位可以共用一个 PostgreSQL 数据库：每个工位都能看到团队的所有运行和提议，审阅者可以在任一工位上做出决定。资料库、长期记忆和这些设置保留在本机；数据库密码保存在系统密钥环中，从不写入文件。</translation>
    </message>
    <message>
        <source>A key is stored in {where}.</source>
        <translation>已在{where}中保存密钥。</translation>
    </message>
    <message>
        <source>No key stored yet ({where}).</source>
        <translation>尚未保存密钥（{where}）。</translation>
    </message>
    <message>
        <source>BriefDesk settings</source>
        <translation>BriefDesk 设置</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Team database</source>
        <translation>团队数据库</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>资料库</translation>
    </message>
    <message>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Choose a preset…</source>
        <translation>选择预设…</translation>
    </message>
    <message>
        <source> (local)</source>
        <translation>（本地）</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <source>Stream the model&apos;s text into the timeline as it is written</source>
        <translation>模型撰写时将文本实时显示到时间线</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>API key (kept in the system keyring, never in files)</source>
        <translation>API 密钥（保存在系统密钥环中，从不写入文件）</translation>
    </message>
    <message>
        <source>Paste a new key to store it</source>
        <translation>粘贴新的密钥以保存</translation>
    </message>
    <message>
        <source>Store key</source>
        <translation>保存密钥</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>OpenAI key</source>
        <translation>OpenAI 密钥</translation>
    </message>
    <message>
        <source>Checking the keyring…</source>
        <translation>正在检查密钥环…</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>审批</translation>
    </message>
    <message>
        <source>Permission mode</source>
        <translation>权限模式</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>A pending approval expires after this many seconds</source>
        <translation>待决的审批请求在这么多秒后过期</translation>
    </message>
    <message>
        <source>Approval expires after</source>
        <translation>审批过期时间</translation>
    </message>
    <message>
        <source>Reviewer name</source>
        <translation>审阅者名称</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Let fetch_url reach the domains below (no mode enables it)</source>
        <translation>允许 fetch_url 访问下列域名（任何模式都不会自动开启）</translation>
    </message>
    <message>
        <source>example.org, docs.python.org</source>
        <translation>example.org, docs.python.org</translation>
    </message>
    <message>
        <source>Allowed domains</source>
        <translation>允许的域名</translation>
    </message>
    <message>
        <source>This server needs an API key: store it below.</source>
        <translation>此服务器需要 API 密钥：请在下方保存。</translation>
    </message>
    <message>
        <source>This server usually needs no API key. Set the model name to one it serves.</source>
        <translation>此服务器通常不需要 API 密钥。请把模型名称设为它提供的某个模型。</translation>
    </message>
    <message>
        <source>Asking {url}…</source>
        <translation>正在询问 {url}…</translation>
    </message>
    <message>
        <source>Connected. </source>
        <translation>已连接。</translation>
    </message>
    <message>
        <source>Failed. </source>
        <translation>失败。</translation>
    </message>
    <message>
        <source>Paste a key first.</source>
        <translation>请先粘贴密钥。</translation>
    </message>
    <message>
        <source>Storing the key…</source>
        <translation>正在保存密钥…</translation>
    </message>
    <message>
        <source>The key was not stored</source>
        <translation>密钥未保存</translation>
    </message>
    <message>
        <source>The key was not removed</source>
        <translation>密钥未移除</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts — BriefDesk</source>
        <translation>键盘快捷键 — BriefDesk</translation>
    </message>
    <message>
        <source>What</source>
        <translation>功能</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
</context>
<context>
    <name>SideTabs</name>
    <message>
        <source>The artifacts panel is not available in this build.</source>
        <translation>此版本不含产出面板。</translation>
    </message>
</context>
<context>
    <name>StoreStatus</name>
    <message>
        <source>Saved. A run is being driven in this window, so it stays on its database for now: BriefDesk uses the new one the next time it starts.</source>
        <translation>已保存。此窗口正在驱动一个运行，因此暂时仍使用原数据库：BriefDesk 下次启动时会使用新的数据库。</translation>
    </message>
    <message>
        <source>Saved. {why}</source>
        <translation>已保存。{why}</translation>
    </message>
</context>
<context>
    <name>StoreText</name>
    <message>
        <source>--db on the command line</source>
        <translation>命令行中的 --db</translation>
    </message>
    <message>
        <source>the BRIEFDESK_DB environment variable</source>
        <translation>环境变量 BRIEFDESK_DB</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Team database {where}</source>
        <translation>团队数据库 {where}</translation>
    </message>
    <message>
        <source>{store} · desk {desk}</source>
        <translation>{store} · 工位 {desk}</translation>
    </message>
    <message>
        <source>Runs, approvals and decisions live in the team database {url}, shared by every desk that uses it.</source>
        <translation>运行、审批和决定保存在团队数据库 {url} 中，由使用它的所有工位共享。</translation>
    </message>
    <message>
        <source>Runs live on this computer only, in the home&apos;s database {url}.</source>
        <translation>运行只保存在本机，位于主目录的数据库 {url} 中。</translation>
    </message>
    <message>
        <source> Chosen by {what}.</source>
        <translation> 由{what}指定。</translation>
    </message>
    <message>
        <source>This desk: {desk}.</source>
        <translation>本工位：{desk}。</translation>
    </message>
    <message>
        <source>This window uses the database given by {what}; the URL saved here is used when BriefDesk starts without it.</source>
        <translation>此窗口使用{what}给出的数据库；BriefDesk 在未指定它的情况下启动时，才会使用此处保存的 URL。</translation>
    </message>
    <message>
        <source>Not reachable. {why}</source>
        <translation>无法连接。{why}</translation>
    </message>
    <message>
        <source>Reachable.</source>
        <translation>可以连接。</translation>
    </message>
    <message>
        <source> Schema revision {n}.</source>
        <translation> 结构版本 {n}。</translation>
    </message>
    <message>
        <source> Up to date.</source>
        <translation> 已是最新。</translation>
    </message>
    <message>
        <source>an environment variable</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>A password for this database is stored in {where}.</source>
        <translation>此数据库的密码已保存在{where}中。</translation>
    </message>
    <message>
        <source>No password stored for this database yet ({where}).</source>
        <translation>尚未保存此数据库的密码（{where}）。</translation>
    </message>
    <message>
        <source> {name} is set in the environment: it is used instead of the keyring.</source>
        <translation> 环境中设置了 {name}：将使用它而不是密钥环。</translation>
    </message>
</context>
<context>
    <name>SuggestRulesWindow</name>
    <message>
        <source>Suggested rules</source>
        <translation>建议的规则</translation>
    </message>
    <message>
        <source>Each suggestion is the narrowest rule that would have decided what a person approved three times or more: the very file approved each time, or the folder holding the files approved, never its parent; for a coding agent, the exact command in its folder, or one MCP server&apos;s tool. Nothing is allowed until you make one.</source>
        <translation>每条建议都是能替人做出其三次或以上批准的最窄规则：每次都被批准的那个文件，或包含被批准文件的文件夹，绝不是它的上级文件夹；对编程智能体，则是在其文件夹中运行的那条确切命令，或某个 MCP 服务器的一个工具。在你创建规则之前，什么都不会被自动允许。</translation>
    </message>
    <message>
        <source>Past proposals it would have approved</source>
        <translation>它本会批准的过往提议</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在载入…</translation>
    </message>
    <message>
        <source>&amp;Make this rule…</source>
        <translation>创建此规则(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Past proposals it would have approved:</source>
        <translation>它本会批准的过往提议：</translation>
    </message>
    <message>
        <source>No suggestion yet: a rule is suggested after three approvals alike.</source>
        <translation>暂无建议：同类批准达到三次后才会建议规则。</translation>
    </message>
    <message>
        <source>{n} suggestions</source>
        <translation>{n} 条建议</translation>
    </message>
    <message>
        <source>Make this rule?</source>
        <translation>创建此规则？</translation>
    </message>
    <message>
        <source>{scope}

It would have approved {n} past proposals. From now on they are approved without asking, in every run in this home, until you revoke it.</source>
        <translation>{scope}

它本会批准 {n} 条过往提议。从现在起，在此主目录的每个运行中，这类调用都无需询问即被批准，直到你撤销该规则。</translation>
    </message>
    <message>
        <source>Make the rule</source>
        <translation>创建规则</translation>
    </message>
    <message>
        <source>Made: {rule}.</source>
        <translation>已创建：{rule}。</translation>
    </message>
</context>
<context>
    <name>SystemOpen</name>
    <message>
        <source>No program on this system opened it. Install a viewer for this kind of file (or choose a default application for it in your desktop&apos;s settings), then try again.</source>
        <translation>本系统没有程序打开它。请安装可查看此类文件的程序（或在桌面设置中为它选择默认应用程序），然后重试。</translation>
    </message>
</context>
<context>
    <name>TeamDatabaseBox</name>
    <message>
        <source>postgresql://desk@db.example.org/team (empty: this computer)</source>
        <translation>postgresql://desk@db.example.org/team（留空：本机）</translation>
    </message>
    <message>
        <source>Where runs, proposals and decisions live</source>
        <translation>运行、提议和决定保存在哪里</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>This window</source>
        <translation>此窗口</translation>
    </message>
    <message>
        <source>PostgreSQL URL</source>
        <translation>PostgreSQL URL</translation>
    </message>
    <message>
        <source>Kept in the system keyring, never in files</source>
        <translation>保存在系统密钥环中，从不写入文件</translation>
    </message>
    <message>
        <source>Store password</source>
        <translation>保存密码</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Empty: runs live on this computer only. A team database lets every desk that uses it see every run and proposal.</source>
        <translation>留空：运行只保存在本机。团队数据库让使用它的每个工位都能看到所有运行和提议。</translation>
    </message>
    <message>
        <source>Saved. Every desk that uses this database sees every run and proposal.</source>
        <translation>已保存。使用此数据库的每个工位都能看到所有运行和提议。</translation>
    </message>
    <message>
        <source>Save checks that the database can be reached, then the window reconnects to it (runs on this computer stay in its home, unchanged).</source>
        <translation>保存时会检查能否连接数据库，然后窗口重新连接到它（本机的运行保留在其主目录中，不受影响）。</translation>
    </message>
    <message>
        <source>Save reconnects the window to this computer&apos;s own database.</source>
        <translation>保存后窗口会重新连接到本机自己的数据库。</translation>
    </message>
    <message>
        <source>Type the password first.</source>
        <translation>请先输入密码。</translation>
    </message>
    <message>
        <source>Storing the password…</source>
        <translation>正在保存密码…</translation>
    </message>
    <message>
        <source>The password was not stored</source>
        <translation>密码未保存</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
</context>
<context>
    <name>Theme</name>
    <message>
        <source>Not started</source>
        <translation>未开始</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Needs approval</source>
        <translation>需要审批</translation>
    </message>
    <message>
        <source>Needs an answer</source>
        <translation>需要回答</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>Model turns</source>
        <translation>模型轮次</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>审批</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>阻止</translation>
    </message>
    <message>
        <source>Crash &amp; resume</source>
        <translation>崩溃与恢复</translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation>产出</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Lifecycle</source>
        <translation>生命周期</translation>
    </message>
    <message>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
</context>
<context>
    <name>TimelineModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
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
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>From the call to its result</source>
        <translation>从调用到得到结果</translation>
    </message>
    <message>
        <source>From the start of the run to its end, waits for people included</source>
        <translation>从运行开始到结束，包括等待人的时间</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <source>Select an event to see its data (secrets are redacted).</source>
        <translation>选择一个事件以查看其数据（机密信息已隐去）。</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Show {kinds} (arrow keys move, Space toggles)</source>
        <translation>显示{kinds}（方向键移动，空格键切换）</translation>
    </message>
    <message>
        <source>Filter events: text, tool, path, outcome… (Ctrl+F)</source>
        <translation>筛选事件：文本、工具、路径、结果…（Ctrl+F）</translation>
    </message>
    <message>
        <source>Filter the timeline</source>
        <translation>筛选时间线</translation>
    </message>
    <message>
        <source>⤓ Follow</source>
        <translation>⤓ 跟随</translation>
    </message>
    <message>
        <source>Keep the newest event in view (pauses while you scroll up)</source>
        <translation>始终显示最新事件（向上滚动时暂停）</translation>
    </message>
    <message>
        <source>What the tool returned:</source>
        <translation>工具返回的内容：</translation>
    </message>
    <message>
        <source>The tool did not run: it returned nothing.</source>
        <translation>工具未运行：没有返回任何内容。</translation>
    </message>
    <message>
        <source>{total} events</source>
        <translation>{total} 个事件</translation>
    </message>
    <message>
        <source>{shown} of {total}</source>
        <translation>{shown} / {total}</translation>
    </message>
    <message>
        <source>No match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>No event matches “{typed}”</source>
        <translation>没有事件匹配“{typed}”</translation>
    </message>
    <message>
        <source>No event of the kinds shown</source>
        <translation>没有所显示类型的事件</translation>
    </message>
    <message>
        <source> ({kinds} hidden)</source>
        <translation>（已隐藏{kinds}）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>{what}. Clear the filter or show more kinds to see the run&apos;s events.</source>
        <translation>{what}。清除筛选或显示更多类型即可看到此运行的事件。</translation>
    </message>
</context>
<context>
    <name>TimelineTable</name>
    <message>
        <source>Select a run on the left, or press Run (Ctrl+Enter) to start one.</source>
        <translation>在左侧选择一个运行，或按“运行”（Ctrl+Enter）开始一个新的运行。</translation>
    </message>
</context>
<context>
    <name>UsageText</name>
    <message>
        <source>cost unknown</source>
        <translation>费用未知</translation>
    </message>
    <message>
        <source>{requests} req · {tokens} tok</source>
        <translation>{requests} 次请求 · {tokens} token</translation>
    </message>
    <message>
        <source>{n} request</source>
        <translation>{n} 次请求</translation>
    </message>
    <message>
        <source>{n} requests</source>
        <translation>{n} 次请求</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>{n} 个 token</translation>
    </message>
    <message>
        <source> ({input} in, {output} out)</source>
        <translation>（输入 {input}，输出 {output}）</translation>
    </message>
    <message>
        <source>{used} (no limit)</source>
        <translation>{used}（无上限）</translation>
    </message>
    <message>
        <source>{used} of {limit}</source>
        <translation>{used} / {limit}</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
</context>
<context>
    <name>WindowBanners</name>
    <message>
        <source>{n} runs were interrupted when their process died. Newest: “{question}”. </source>
        <translation>有 {n} 个运行因其进程终止而被中断。最新的是：“{question}”。</translation>
    </message>
    <message>
        <source>“{question}” was interrupted when its process died. </source>
        <translation>“{question}”因其进程终止而被中断。</translation>
    </message>
    <message>
        <source>Resume continues from its last checkpoint without repeating a side effect.</source>
        <translation>“恢复”会从最后一个检查点继续，不会重复任何副作用。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>A file nobody approved appeared in the artifacts folder: {path}</source>
        <translation>产出文件夹中出现了一个未经批准的文件：{path}</translation>
    </message>
    <message>
        <source>{n} files nobody approved appeared in the artifacts folder while no run was watching it. Latest: {path}</source>
        <translation>在没有运行监视产出文件夹期间，其中出现了 {n} 个未经批准的文件。最新的是：{path}</translation>
    </message>
    <message>
        <source>Show the folder</source>
        <translation>显示文件夹</translation>
    </message>
</context>
</TS>
