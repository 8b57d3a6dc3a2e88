import { Disposable, LogOutputChannel, ViewColumn, commands, env, languages, window, workspace } from 'vscode';
import { DidChangeConfigurationNotification, ExecuteCommandRequest, LanguageClient, State } from 'vscode-languageclient/node';
import { DOCUMENT_SELECTOR, createClient } from './client';
import { contract } from './contract';
import { ServerLaunch, resolveServerLaunch } from './serverLaunch';
import { StatusBar } from './statusBar';

/**
 * Owns the running language client: starts and restarts it, and sends the
 * server's commands. Restarts build a fresh client so changed
 * `auditex.server.*` settings take effect.
 */
export class ServerSession {
    private client: LanguageClient | undefined;
    private clientResources: Disposable[] = [];
    // Start and stop run one at a time, so a restart never races a start.
    private queue: Promise<void> = Promise.resolve();

    constructor(
        private readonly output: LogOutputChannel,
        private readonly statusBar: StatusBar,
    ) {}

    start(): Promise<void> {
        return this.enqueue(() => this.doStart());
    }

    stop(): Promise<void> {
        return this.enqueue(() => this.doStop());
    }

    restart(): Promise<void> {
        return this.enqueue(async () => {
            await this.doStop();
            await this.doStart();
        });
    }

    /** Tells a running server that its settings changed; it reads them back with workspace/configuration. */
    settingsChanged(): Promise<void> {
        return this.enqueue(async () => {
            try {
                if (this.client?.isRunning()) {
                    await this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
                }
            } catch (error) {
                this.output.error(`telling the server of changed settings failed: ${message(error)}`);
            }
        });
    }

    /**
     * Runs a server command through workspace/executeCommand and presents its
     * result: `markdown` opens beside the editor, `message` pops up. Failures
     * are shown, never thrown, since callers are command handlers.
     */
    async runServerCommand(command: string, args: unknown[]): Promise<void> {
        const client = this.client;
        if (client === undefined || !client.isRunning()) {
            void window.showErrorMessage('auditex: the language server is not running; run "auditex: Restart server" or see the auditex output.');
            return;
        }
        let result: unknown;
        try {
            result = await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
        } catch (error) {
            this.output.error(`${command} failed: ${message(error)}`);
            void window.showErrorMessage(`auditex: ${command} failed: ${message(error)}`);
            return;
        }
        await presentResult(result);
    }

    /** The URI of the active editor's document if the server handles it, spelled as the server expects it. */
    activeDocumentUri(): string | undefined {
        const document = window.activeTextEditor?.document;
        if (document === undefined || this.client === undefined || languages.match(DOCUMENT_SELECTOR, document) === 0) {
            return undefined;
        }
        return this.client.code2ProtocolConverter.asUri(document.uri);
    }

    private enqueue(step: () => Promise<void>): Promise<void> {
        const next = this.queue.then(step, step);
        this.queue = next.catch(() => undefined);
        return next;
    }

    private async doStart(): Promise<void> {
        const settings = workspace.getConfiguration(contract.configurationSection);
        let launch: ServerLaunch;
        try {
            launch = resolveServerLaunch(settings.get('server.command'), settings.get('server.pythonPath'));
        } catch (error) {
            this.fail(error);
            return;
        }
        this.statusBar.update((status) => status.setServerState('starting'));
        const { client, resources } = createClient(launch, this.output, {
            handleWorkDoneProgress: (token, params, next) => {
                this.statusBar.update((status) => status.onProgress(token, params));
                next(token, params);
            },
        });
        this.client = client;
        this.clientResources = [
            ...resources,
            client.onNotification(contract.statusNotification.method, (params: unknown) => {
                if (!this.statusBar.update((status) => status.setStatus(params))) {
                    this.output.warn(`ignored a malformed ${contract.statusNotification.method} notification: ${JSON.stringify(params)}`);
                }
            }),
            client.onDidChangeState(({ newState }) => {
                this.statusBar.update((status) => status.setServerState(newState === State.Running ? 'running' : newState === State.Starting ? 'starting' : 'stopped'));
            }),
        ];
        const program = [launch.command, ...launch.args].join(' ');
        this.output.info(`starting the auditex language server: ${program}`);
        try {
            await client.start();
        } catch (error) {
            this.fail(new Error(startFailure(program, message(error))));
            return;
        }
        this.clientResources.push(...this.forwardServerCommands(client));
    }

    private async doStop(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        try {
            if (client?.needsStop()) {
                await client.stop();
            }
        } catch (error) {
            this.output.error(`stopping the auditex language server failed: ${message(error)}`);
        } finally {
            this.clientResources.forEach((resource) => resource.dispose());
            this.clientResources = [];
            this.statusBar.update((status) => status.setServerState('stopped'));
        }
    }

    /**
     * Server commands the extension does not contribute itself (for example
     * ones attached to code actions) still need a VS Code command to run.
     */
    private forwardServerCommands(client: LanguageClient): Disposable[] {
        const advertised = client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
        const owned = new Set(contract.clientCommands.map((command) => command.command));
        return advertised
            .filter((command) => !owned.has(command))
            .map((command) => commands.registerCommand(command, (...args: unknown[]) => this.runServerCommand(command, args)));
    }

    private fail(error: unknown): void {
        this.output.error(message(error));
        this.statusBar.update((status) => status.setServerState('stopped'));
        void window.showErrorMessage(`auditex: ${message(error)}`);
    }
}

async function presentResult(result: unknown): Promise<void> {
    if (typeof result !== 'object' || result === null) {
        return;
    }
    const { markdown, message: text } = result as { markdown?: unknown; message?: unknown };
    if (typeof markdown === 'string') {
        const document = await workspace.openTextDocument({ language: 'markdown', content: markdown });
        await window.showTextDocument(document, { viewColumn: ViewColumn.Beside, preview: false });
    }
    // The server's messages carry their "auditex:" already.
    if (typeof text === 'string' && text !== '') {
        void window.showInformationMessage(text);
    }
}

/** Why the server did not start, and which settings to look at; in a remote window, where they are read. */
function startFailure(program: string, reason: string): string {
    const missing = /\bENOENT\b/.test(reason);
    const where = env.remoteName === undefined
        ? 'Install auditex where VS Code runs, or set auditex.server.pythonPath.'
        : 'This window runs its extensions on a remote machine, which reads auditex.server.command and auditex.server.pythonPath from its Remote settings only, never from User settings: set them there, or install auditex on the remote.';
    return `could not start the language server "${program}"${missing ? ': the program was not found' : `: ${reason}`}. ${where}`;
}

function message(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
