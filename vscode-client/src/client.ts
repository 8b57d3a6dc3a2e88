import * as readline from 'readline';
import { Disposable, LogOutputChannel, workspace } from 'vscode';
import {
    DynamicFeature,
    ExecuteCommandRequest,
    LanguageClient,
    LanguageClientOptions,
    Middleware,
    ServerOptions,
    StaticFeature,
} from 'vscode-languageclient/node';
import { ServerLaunch } from './serverLaunch';
import { StderrLevels } from './serverLog';
import { SettingTraceChannel } from './traceChannel';

/**
 * Every .tex and .bib file, whatever language mode it is in, and the LaTeX
 * language ids: VS Code's (latex, tex, bibtex) and LaTeX Workshop's latex-expl3.
 * LaTeX Workshop's doctex (.dtx, a package's documented source) is no manuscript.
 * Untyped on purpose: the plain filters fit both vscode's and the protocol's DocumentSelector.
 */
export const DOCUMENT_SELECTOR = [
    { scheme: 'file', language: 'latex' },
    { scheme: 'file', language: 'latex-expl3' },
    { scheme: 'file', language: 'tex' },
    { scheme: 'file', language: 'bibtex' },
    { scheme: 'file', pattern: '**/*.tex' },
    { scheme: 'file', pattern: '**/*.bib' },
];

// Files the server reads from disk: editing them outside the editor changes the diagnostics of open files.
const WATCHED_GLOBS = ['**/*.{tex,bib,bbl,sty,cls}', '**/.auditex.toml'];

/**
 * The extension registers VS Code commands under the same ids the server
 * advertises (auditex.checkProject, auditex.showReport, ...). The built-in
 * executeCommand feature would register them a second time and fail to start
 * with "command already exists", so it is declined here; the session sends
 * workspace/executeCommand itself and forwards the server's other commands.
 */
class AuditexLanguageClient extends LanguageClient {
    private starting = false;

    // `any` mirrors the signature of the method overridden.
    override registerFeature(feature: StaticFeature | DynamicFeature<any>): void {
        if ('registrationType' in feature && feature.registrationType.method === ExecuteCommandRequest.method) {
            return;
        }
        super.registerFeature(feature);
    }

    override async start(): Promise<void> {
        this.starting = true;
        try {
            await super.start();
        } finally {
            this.starting = false;
        }
    }

    // A failed start is the session's to tell, once, with what to do about it.
    override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
        super.error(message, data, this.starting ? false : showNotification);
    }
}

export interface ClientParts {
    readonly client: LanguageClient;
    readonly resources: Disposable[];
}

/**
 * A language client for one run of `auditex serve`, with the file watchers and
 * trace channel it owns. Settings reach the server through the session, not
 * through `synchronize.configurationSection`: one path, so a change that
 * restarts the server sends nothing to the client being stopped.
 */
export function createClient(launch: ServerLaunch, output: LogOutputChannel, middleware: Middleware): ClientParts {
    const cwd = workspace.workspaceFolders?.[0]?.uri.fsPath;
    const serverOptions: ServerOptions = { command: launch.command, args: launch.args, options: cwd === undefined ? {} : { cwd } };
    const watchers = WATCHED_GLOBS.map((glob) => workspace.createFileSystemWatcher(glob));
    const trace = new SettingTraceChannel(output);
    const clientOptions: LanguageClientOptions = {
        documentSelector: DOCUMENT_SELECTOR,
        synchronize: { fileEvents: watchers },
        outputChannel: output,
        traceOutputChannel: trace,
        stdioOptions: {
            stdout: (input, channel) => lines(input, (line) => channel.info(line)),
            stderr: (input, channel) => {
                const levels = new StderrLevels();
                lines(input, (line) => channel[levels.level(line)](line));
            },
        },
        middleware,
    };
    const client = new AuditexLanguageClient('auditex', 'auditex', serverOptions, clientOptions);
    return { client, resources: [...watchers, trace] };
}

function lines(input: NodeJS.ReadableStream, each: (line: string) => void): void {
    readline.createInterface({ input, crlfDelay: Infinity, terminal: false }).on('line', each);
}
