import { ExtensionContext, window, workspace } from 'vscode';
import { registerCommands } from './commands';
import { ServerSession } from './session';
import { StatusBar } from './statusBar';

// VS Code calls deactivate without arguments, so the session lives here to be stopped and awaited.
let session: ServerSession | undefined;

export function activate(context: ExtensionContext): void {
    const output = window.createOutputChannel('auditex', { log: true });
    const statusBar = new StatusBar();
    session = new ServerSession(output, statusBar);
    const current = session;
    context.subscriptions.push(
        output,
        statusBar,
        ...registerCommands(current),
        // The one path by which settings reach the server: a new server for its launch settings, else a notification.
        workspace.onDidChangeConfiguration((event) => {
            if (event.affectsConfiguration('auditex.server')) {
                void current.restart();
            } else if (event.affectsConfiguration('auditex')) {
                void current.settingsChanged();
            }
        }),
    );
    void current.start();
}

export function deactivate(): Promise<void> | undefined {
    const stopping = session?.stop();
    session = undefined;
    return stopping;
}
