import { Disposable, commands } from 'vscode';
import { ClientCommand, contract } from './contract';
import { ServerSession } from './session';

/** Registers every palette command of contract.json. */
export function registerCommands(session: ServerSession): Disposable[] {
    return contract.clientCommands.map((command) =>
        commands.registerCommand(command.command, (...args: unknown[]) => run(session, command, args)),
    );
}

function run(session: ServerSession, command: ClientCommand, args: unknown[]): Promise<void> {
    if (command.serverCommand === undefined) {
        return clientOnly(session, command.command);
    }
    // The server gets one argument object: the active document, the command's
    // fixed arguments (the audit mode), then whatever a caller such as a code action passed.
    const passed = typeof args[0] === 'object' && args[0] !== null ? args[0] : {};
    const uri = session.activeDocumentUri();
    const argument = { ...(uri === undefined ? {} : { uri }), ...command.arguments, ...passed };
    return session.runServerCommand(command.serverCommand, [argument]);
}

function clientOnly(session: ServerSession, command: string): Promise<void> {
    switch (command) {
        case 'auditex.restartServer':
            return session.restart();
        default:
            return Promise.reject(new Error(`contract.json names ${command} without a server command, and the client does not implement it`));
    }
}
