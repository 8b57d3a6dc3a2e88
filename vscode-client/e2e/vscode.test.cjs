// The extension in a real VS Code: code-server serves it on 127.0.0.1 and headless
// Chromium drives it as a person would, on a copy of examples/paper.
// run.sh installs what this needs and sets the AUDITEX_E2E_* variables.
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { after, before, describe, it } = require('node:test');
const { chromium } = require('playwright-core');

const env = (name) => {
    const value = process.env[name];
    assert.ok(value, `${name} is not set; run vscode-client/e2e/run.sh`);
    return value;
};
const REPO = env('AUDITEX_E2E_REPO');
const PYTHON = env('AUDITEX_E2E_PYTHON'); // has auditex installed
const VSIX = env('AUDITEX_E2E_VSIX');
const VSCE = env('AUDITEX_E2E_VSCE');
const WORK = env('AUDITEX_E2E_WORK'); // emptied by run.sh
const SHOTS = env('AUDITEX_E2E_SHOTS');
const CODE_SERVER = env('AUDITEX_E2E_CODE_SERVER');

const PAPER = path.join(WORK, 'paper');
const USER_DATA = path.join(WORK, 'user-data');
const USER_SETTINGS = path.join(USER_DATA, 'User', 'settings.json');
// VS Code watches the folder's settings file for changes made outside it, as a user makes them.
const FOLDER_SETTINGS = path.join(PAPER, '.vscode', 'settings.json');
// A remote window (code-server is one) reads machine-overridable settings from here, not from User settings.
const MACHINE_SETTINGS = path.join(USER_DATA, 'Machine', 'settings.json');
const WAIT_MS = 90_000;
// The example paper's findings above hint severity, as `auditex check examples/paper` lists them (its NUM
// findings are hints: their evidence classes were measured mostly false on the corpus).
const PAPER_CODES = ['CIT001', 'DIS002', 'REF001', 'TAB001'];

const children = [];
// The processes started go with this one, however it ends.
process.on('exit', () => children.forEach((child) => child.stop()));
for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => process.exit(1));
}
let browser;
let page;

describe('auditex in a real VS Code (code-server)', () => {
    before(async () => {
        fs.cpSync(path.join(REPO, 'examples', 'paper'), PAPER, { recursive: true });
        const llmUrl = await startLlmStandIn();
        writeJson(USER_SETTINGS, {
            'workbench.startupEditor': 'none',
            'workbench.secondarySideBar.defaultVisibility': 'hidden',
            'chat.disableAIFeatures': true,
            'security.workspace.trust.enabled': false,
            'telemetry.telemetryLevel': 'off',
            'update.mode': 'none',
            'files.autoSave': 'off',
            'extensions.ignoreRecommendations': true,
            'auditex.llm.baseUrl': llmUrl,
            'auditex.llm.model': 'loopback-model',
        });
        writeJson(MACHINE_SETTINGS, { 'auditex.server.pythonPath': PYTHON });
        writeJson(FOLDER_SETTINGS, {});
        const codeServer = ['--user-data-dir', USER_DATA, '--extensions-dir', path.join(WORK, 'extensions'), '--config', path.join(WORK, 'config.yaml')];
        for (const vsix of [VSIX, latexWorkshopLanguages()]) {
            execFileSync(CODE_SERVER, [...codeServer, '--install-extension', vsix], { env: serverEnv(), stdio: 'pipe', timeout: 120_000 });
        }
        const port = await freePort();
        const server = start(CODE_SERVER, [...codeServer, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust'], serverEnv(), 'code-server.log');
        await until('code-server to listen', () => server.output().includes('HTTP server listening'), 60_000);
        const workbenchUrl = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(PAPER)}`;
        browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
        page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
        await page.addInitScript(recordNotifications);
        await page.goto(workbenchUrl);
        await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: WAIT_MS });
    });

    after(async () => {
        await browser?.close();
        children.splice(0).forEach((child) => child.stop());
    });

    it('lists the paper\'s findings in Problems, as the status bar counts them', async () => {
        await showProblems();
        const rows = await until('the four findings in Problems', async () => {
            const found = await problems();
            return found.length === PAPER_CODES.length ? found : undefined;
        });
        assert.deepEqual(rows.map((row) => row.code).sort(), PAPER_CODES);
        const tab001 = rows.find((row) => row.code === 'TAB001');
        // A table row named by \method shows what the macro prints.
        assert.match(tab001.message, /^Table tab:main \(row SparseProbe\) gives the aggregate 77\.5/);
        assert.ok(!rows.some((row) => row.message.includes('\\method')), JSON.stringify(rows));
        // Problems lists no hints, and neither does the status bar count them.
        await until('the status bar to count four findings', async () => shows(await statusText(), 4));
        await page.screenshot({ path: path.join(SHOTS, 'problems.png') });
    });

    it('applies a quick fix, and the finding goes', async () => {
        await openFile('intro.tex');
        await goTo(5, 14);
        const menu = await quickFixMenu();
        assert.ok(menu.includes("Replace `sec:result` with `sec:results`"), menu.join('\n'));
        await page.screenshot({ path: path.join(SHOTS, 'quick-fix-menu.png') });
        await choose("Replace `sec:result` with `sec:results`");
        await until('REF001 to leave Problems', async () => !(await problems()).some((row) => row.code === 'REF001'));
        assert.match(await editorText(), /\\ref\{sec:results\}/);
        await page.keyboard.press('Control+S');
        await until('intro.tex saved', async () => !(await page.locator('.editor-group-container.active .tab.active.dirty').isVisible()));
    });

    it('dismisses a finding into .auditex/dismissed.json', async () => {
        await openFile('results.tex');
        await goTo(4, 22);
        await quickFixMenu();
        await choose('Dismiss this finding');
        await until('CIT001 to leave Problems', async () => !(await problems()).some((row) => row.code === 'CIT001'));
        const dismissed = JSON.parse(fs.readFileSync(path.join(PAPER, '.auditex', 'dismissed.json'), 'utf8'));
        assert.match(JSON.stringify(dismissed), /CIT001/);
        await until('the dismissal told once, with one prefix', async () =>
            (await notifications()).some((note) => /^auditex: dismissed CIT001 \(undo by removing it from \.auditex\/dismissed\.json\)\.$/.test(note.text)));
    });

    it('runs each contributed command', async () => {
        const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'vscode-client', 'package.json'), 'utf8'));
        const titles = manifest.contributes.commands.map((command) => command.title);
        const expected = {
            'auditex: Check project': { toast: /^auditex: 2 findings in 1 root file\.$/ },
            'auditex: Audit (fast)': { toast: /^auditex: fast audit: / },
            'auditex: Audit (standard)': { toast: /^auditex: standard audit: / },
            'auditex: Audit (deep)': { toast: /^auditex: deep audit: / },
            'auditex: Show report': { document: /auditex report/ },
            'auditex: Write review': { toast: /^auditex: review of main\.tex: /, document: /^# Review/m },
            'auditex: Restart server': { restart: true },
        };
        assert.deepEqual(titles.slice().sort(), Object.keys(expected).sort());
        for (const title of titles) {
            const { toast, document, restart } = expected[title];
            const seen = (await notifications()).length;
            const shown = (await statuses()).length;
            await runCommand(title);
            if (toast !== undefined) {
                await until(`"${title}" to tell its result`, async () => (await notifications()).slice(seen).some((note) => toast.test(note.text)));
            }
            if (document !== undefined) {
                await until(`"${title}" to open its Markdown`, async () => document.test(await editorText()));
            }
            if (restart) {
                await until('a new language server', async () => (await statuses()).slice(shown).includes('auditex: starting'));
            }
            await until(`the status bar after "${title}"`, async () => shows(await statusText(), 2));
        }
        await page.screenshot({ path: path.join(SHOTS, 'after-commands.png') });
    });

    it('showed no error notification, and no doubled prefix', async () => {
        const notes = await notifications();
        assert.deepEqual(notes.filter((note) => note.severity === 'error'), []);
        assert.deepEqual(notes.filter((note) => note.text.includes('auditex: auditex:')), []);
    });

    it('hands a changed rule setting to the server without a restart or a toast', async () => {
        const starts = serverStarts();
        const seen = (await notifications()).length;
        updateJson(FOLDER_SETTINGS, { 'auditex.rules.disabled': ['DIS002'] });
        await until('DIS002 to leave Problems', async () => !(await problems()).some((row) => row.code === 'DIS002'));
        await until('the status bar to count one', async () => shows(await statusText(), 1));
        assert.equal(serverStarts(), starts);
        assert.deepEqual((await notifications()).slice(seen), []);
    });

    it('traces the protocol while auditex.trace.server says so', async () => {
        const traced = () => (outputLog().match(/Sending request 'workspace\/executeCommand/g) ?? []).length;
        assert.equal(traced(), 0);
        updateJson(FOLDER_SETTINGS, { 'auditex.trace.server': 'messages' });
        await pause(1000); // the client hears of the setting through its own configuration listener
        await runCommand('auditex: Check project');
        await until('a traced executeCommand', () => traced() > 0);
        updateJson(FOLDER_SETTINGS, { 'auditex.trace.server': 'off' });
        await pause(1000);
        const before = traced();
        await runCommand('auditex: Check project');
        await until('the check to finish', async () => shows(await statusText(), 1));
        await pause(1000);
        assert.equal(traced(), before);
    });

    it('restarts the server for a changed server setting, without an error toast', async () => {
        const starts = serverStarts();
        const seen = (await notifications()).length;
        const shown = (await statuses()).length;
        updateJson(MACHINE_SETTINGS, { 'auditex.server.command': [PYTHON, '-X', 'utf8', '-m', 'auditex.cli.main', 'serve'], 'auditex.server.pythonPath': '' });
        await until('the server restarted with the new command', () => serverStarts() === starts + 1 && outputLog().includes(`${PYTHON} -X utf8 -m auditex.cli.main serve`));
        await until('the status bar to show the restart', async () => (await statuses()).slice(shown).includes('auditex: starting'));
        await until('the findings back', async () => shows(await statusText(), 1));
        await pause(2000); // the race this guards against raised its toast just after the restart
        assert.deepEqual((await notifications()).slice(seen).filter((note) => note.severity === 'error'), []);
    });

    it('says once, naming the Remote settings, when the server cannot start', async () => {
        const seen = (await notifications()).length;
        updateJson(MACHINE_SETTINGS, { 'auditex.server.command': ['auditex-not-installed', 'serve'], 'auditex.server.pythonPath': undefined });
        const errors = await until('an error toast', async () => {
            const found = (await notifications()).slice(seen).filter((note) => note.severity === 'error');
            return found.length > 0 ? found : undefined;
        });
        await pause(3000);
        const after = (await notifications()).slice(seen).filter((note) => note.severity === 'error');
        assert.equal(after.length, 1, JSON.stringify(after));
        assert.match(errors[0].text, /^auditex: could not start the language server "auditex-not-installed serve": the program was not found\./);
        assert.match(errors[0].text, /Remote settings/);
        assert.equal(await statusText(), 'auditex: stopped');
        updateJson(MACHINE_SETTINGS, { 'auditex.server.command': undefined, 'auditex.server.pythonPath': PYTHON });
        await until('the findings back', async () => shows(await statusText(), 1));
    });

    for (const language of ['latex-expl3', 'doctex']) {
        it(`follows edits to a .tex file in LaTeX Workshop's ${language} mode`, async () => {
            updateJson(FOLDER_SETTINGS, { 'files.associations': { 'intro.tex': language } });
            await openFile('intro.tex');
            await until(`intro.tex in ${language} mode`, async () => (await page.locator('#status\\.editor\\.mode').innerText()).trim() === language.replace('latex-expl3', 'LaTeX-Expl3').replace('doctex', 'DocTeX'));
            const label = `sec:only-in-${language}`;
            await page.keyboard.press('Control+End');
            await page.keyboard.insertText(`\nSee Section~\\ref{${label}}.\n`);
            // Unsaved: only a document the extension attached reaches the server.
            await until('intro.tex edited and unsaved', () => page.locator('.editor-group-container.active .tab.active.dirty').isVisible());
            await until(`REF001 on the unsaved \\ref{${label}}`, async () => (await problems()).some((row) => row.code === 'REF001' && row.message.includes(label)));
            await runCommand('File: Revert File');
            await until(`REF001 on ${label} to go`, async () => !(await problems()).some((row) => row.message.includes(label)));
            await runCommand('View: Close Editor');
        });
    }
});

// The page

/** Runs in the page before the workbench: keeps every notification shown, with its severity, and every text of the status-bar item. */
function recordNotifications() {
    window.__auditexNotifications = [];
    window.__auditexStatuses = [];
    const seen = new Set();
    new MutationObserver(() => {
        const status = document.querySelector('[id$="auditex.status"]')?.innerText.trim();
        if (status !== undefined && status !== window.__auditexStatuses.at(-1)) {
            window.__auditexStatuses.push(status);
        }
        for (const item of document.querySelectorAll('.notification-list-item')) {
            const text = item.querySelector('.notification-list-item-message')?.innerText ?? '';
            const icon = item.querySelector('.notification-list-item-icon')?.className ?? '';
            const severity = /codicon-error/.test(icon) ? 'error' : /codicon-warning/.test(icon) ? 'warning' : 'info';
            const key = `${severity}\u0000${text}\u0000${item.getAttribute('id') ?? ''}`;
            if (text !== '' && !seen.has(key)) {
                seen.add(key);
                window.__auditexNotifications.push({ severity, text });
            }
        }
    }).observe(document, { subtree: true, childList: true, characterData: true });
}

async function notifications() {
    return page.evaluate(() => window.__auditexNotifications.slice());
}

/** The status bar's count, with the spend of the last audit when there was one. */
function shows(status, findings) {
    return new RegExp(`^auditex: ${findings} findings?( \\(\\$\\d+\\.\\d\\d\\))?$`).test(status);
}

/** Every text the status-bar item has shown, oldest first. */
async function statuses() {
    return page.evaluate(() => window.__auditexStatuses.slice());
}

async function statusText() {
    return (await page.locator('[id$="auditex.status"]').innerText()).trim();
}

async function showProblems() {
    await runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    await page.waitForSelector('.markers-panel', { timeout: WAIT_MS });
}

/** The rows of Problems: the code auditex gave each, and its message. */
async function problems() {
    return page.$$eval('.markers-panel .monaco-list-row', (rows) =>
        rows
            .map((row) => row.innerText.split('\n').map((part) => part.trim()))
            .filter((parts) => parts.includes('auditex'))
            .map((parts) => ({ message: parts[0], code: parts[parts.indexOf('auditex') + 1] })),
    );
}

async function runCommand(title) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: WAIT_MS });
    await input.fill(`>${title}`);
    await page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.getByText(title, { exact: true }) }).first().click({ timeout: WAIT_MS });
    await input.waitFor({ state: 'hidden', timeout: WAIT_MS });
}

async function openFile(name) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: WAIT_MS });
    await input.fill(name);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first().click({ timeout: WAIT_MS });
    await input.waitFor({ state: 'hidden', timeout: WAIT_MS });
    await until(`${name} in the editor`, async () => (await page.locator('.editor-group-container.active .tab.active').getAttribute('aria-label'))?.startsWith(name));
    await page.locator('.editor-group-container.active .editor-instance .view-lines').click();
}

async function goTo(line, column) {
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').fill(`:${line}:${column}`);
    await page.keyboard.press('Enter');
}

/** Opens the quick-fix menu at the cursor and returns its entries. */
async function quickFixMenu() {
    return until('the quick-fix menu', async () => {
        // Rows, not the widget: VS Code may add an empty submenu panel that is also an .action-widget.
        if (!(await page.locator('.action-widget .monaco-list-row').first().isVisible())) {
            await page.keyboard.press('Control+.');
            await pause(500);
        }
        const entries = await page.$$eval('.action-widget .monaco-list-row', (rows) => rows.map((row) => row.innerText.trim()).filter(Boolean));
        return entries.length > 0 ? entries : undefined;
    });
}

async function choose(title) {
    await page.locator('.action-widget .monaco-list-row', { hasText: title }).first().click();
}

/** The visible text of the active editor. */
async function editorText() {
    return page.evaluate(() => document.querySelector('.editor-group-container.active .editor-instance .monaco-editor .view-lines')?.innerText.replace(/\u00a0/g, ' ') ?? '');
}

// The machine

function serverEnv() {
    // No auditex on PATH, and no key: the server is what the settings name, the LLM the stand-in.
    return { HOME: process.env.HOME, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, XDG_CACHE_HOME: path.join(WORK, 'cache') };
}

/** The extension's output channel as VS Code logs it. */
function outputLog() {
    const logs = path.join(USER_DATA, 'logs');
    const found = fs.readdirSync(logs, { recursive: true }).filter((file) => file.endsWith(path.join('auditex.auditex', 'auditex.log')));
    return found.map((file) => fs.readFileSync(path.join(logs, file), 'utf8')).join('\n');
}

function serverStarts() {
    return (outputLog().match(/starting the auditex language server/g) ?? []).length;
}

/**
 * The LLM detectors' server: tests/llm_server.py on a free loopback port, answering that it
 * finds nothing (and plans no review task); it stops when its stdin closes.
 */
async function startLlmStandIn() {
    const script = [
        'import json, sys',
        'from llm_server import LoopbackLLMServer',
        'from test_llm_audit import role',
        'with LoopbackLLMServer() as server:',
        '    server.responder = lambda body: json.dumps({"tasks": []} if role(body) == "planner" else {"findings": []})',
        '    print(server.base_url_openai, flush=True)',
        '    sys.stdin.read()',
    ].join('\n');
    const child = start(PYTHON, ['-c', script], { ...serverEnv(), PYTHONPATH: path.join(REPO, 'tests') }, 'llm-stand-in.log');
    return until('the LLM stand-in', () => /^http:\/\/127\.0\.0\.1:\d+\/v1$/m.exec(child.output())?.[0], 30_000);
}

/** LaTeX Workshop's language ids, without LaTeX Workshop: a manifest that contributes them alone. */
function latexWorkshopLanguages() {
    const folder = path.join(WORK, 'latex-languages');
    writeJson(path.join(folder, 'package.json'), {
        name: 'latex-languages',
        publisher: 'auditex-e2e',
        version: '0.0.1',
        license: 'MIT',
        engines: { vscode: '^1.91.0' },
        contributes: {
            languages: [
                { id: 'latex-expl3', aliases: ['LaTeX-Expl3'] },
                { id: 'doctex', aliases: ['DocTeX'], extensions: ['.dtx'] },
            ],
        },
    });
    fs.writeFileSync(path.join(folder, 'README.md'), "LaTeX Workshop's language ids, for auditex's end-to-end test.\n");
    execFileSync(VSCE, ['package', '--allow-missing-repository', '--skip-license', '--out', path.join(WORK, 'latex-languages.vsix')], { cwd: folder, stdio: 'pipe' });
    return path.join(WORK, 'latex-languages.vsix');
}

/** Starts a process in its own group, logging to WORK/logName; stop() ends the group. */
function start(command, args, environment, logName) {
    const log = fs.openSync(path.join(WORK, logName), 'w');
    const child = spawn(command, args, { env: environment, detached: true, stdio: ['pipe', log, log] });
    const handle = {
        output: () => fs.readFileSync(path.join(WORK, logName), 'utf8'),
        stop: () => {
            child.stdin.end();
            try {
                process.kill(-child.pid, 'SIGTERM');
            } catch {
                // already gone
            }
        },
    };
    children.push(handle);
    return handle;
}

function freePort() {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.on('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const { port } = server.address();
            server.close(() => resolve(port));
        });
    });
}

function writeJson(file, value) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

/** Changes some settings of a settings.json; undefined removes one. */
function updateJson(file, changes) {
    writeJson(file, { ...JSON.parse(fs.readFileSync(file, 'utf8')), ...changes });
}

/** Polls `condition` until it returns a truthy value, which it returns; fails after `timeoutMs` saying what it waited for. */
async function until(what, condition, timeoutMs = WAIT_MS) {
    const deadline = Date.now() + timeoutMs;
    let failure;
    while (Date.now() < deadline) {
        try {
            const value = await condition();
            if (value) {
                return value;
            }
        } catch (error) {
            failure = error;
        }
        await pause(250);
    }
    const shot = path.join(SHOTS, `timeout-${what.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}.png`);
    await page?.screenshot({ path: shot }).catch(() => undefined);
    throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${failure ? ` (last error: ${failure.message})` : ''}; screenshot ${shot}`);
}

function pause(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
