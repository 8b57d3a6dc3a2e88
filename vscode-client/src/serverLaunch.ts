/** How to start `auditex serve`; kept free of the vscode API so it can be tested with plain node. */
export interface ServerLaunch {
    readonly command: string;
    readonly args: string[];
}

/**
 * Turns the `auditex.server.*` settings into a program and its arguments.
 * `pythonPath` wins over `command`, so pointing at a virtualenv is one setting.
 * Throws an Error whose message names the bad setting.
 */
export function resolveServerLaunch(command: unknown, pythonPath: unknown): ServerLaunch {
    if (pythonPath !== undefined && pythonPath !== null && typeof pythonPath !== 'string') {
        throw new Error('auditex.server.pythonPath must be a string, the path of a Python interpreter.');
    }
    const interpreter = (pythonPath ?? '').trim();
    if (interpreter !== '') {
        return { command: interpreter, args: ['-m', 'auditex.cli.main', 'serve'] };
    }
    if (!Array.isArray(command) || command.length === 0 || !command.every(isNonEmptyString)) {
        throw new Error('auditex.server.command must be a non-empty array of strings, for example ["auditex", "serve"].');
    }
    const [program, ...args] = command as string[];
    return { command: program, args };
}

function isNonEmptyString(value: unknown): value is string {
    return typeof value === 'string' && value.trim() !== '';
}
