import { FileSystemWatcher, LogOutputChannel, workspace } from 'vscode';
import {
    DynamicFeature,
    ExecuteCommandRequest,
    LanguageClient,
    LanguageClientOptions,
    Middleware,
    ServerOptions,
    StaticFeature,
} from 'vscode-languageclient/node';
import { contract } from './contract';
import { ServerLaunch } from './serverLaunch';

// Untyped on purpose: the plain filters fit both vscode's and the protocol's DocumentSelector.
export const DOCUMENT_SELECTOR = [
    { scheme: 'file', language: 'latex' },
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
    // `any` mirrors the signature of the method overridden.
    override registerFeature(feature: StaticFeature | DynamicFeature<any>): void {
        if ('registrationType' in feature && feature.registrationType.method === ExecuteCommandRequest.method) {
            return;
        }
        super.registerFeature(feature);
    }
}

export interface ClientParts {
    readonly client: LanguageClient;
    readonly watchers: FileSystemWatcher[];
}

/** A language client for one run of `auditex serve`, with the file watchers it owns. */
export function createClient(launch: ServerLaunch, output: LogOutputChannel, middleware: Middleware): ClientParts {
    const cwd = workspace.workspaceFolders?.[0]?.uri.fsPath;
    const serverOptions: ServerOptions = { command: launch.command, args: launch.args, options: cwd === undefined ? {} : { cwd } };
    const watchers = WATCHED_GLOBS.map((glob) => workspace.createFileSystemWatcher(glob));
    const clientOptions: LanguageClientOptions = {
        documentSelector: DOCUMENT_SELECTOR,
        synchronize: { fileEvents: watchers, configurationSection: contract.configurationSection },
        outputChannel: output,
        middleware,
    };
    const client = new AuditexLanguageClient('auditex', 'auditex', serverOptions, clientOptions);
    return { client, watchers };
}
