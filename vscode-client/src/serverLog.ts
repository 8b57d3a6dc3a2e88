/** The level of each line the server writes to stderr; kept free of the vscode API so it can be tested with plain node. */
export type LogLevelName = 'error' | 'warn' | 'info' | 'debug';

// `auditex serve` logs "auditex: LEVEL: message" (cli/main.py's logging format).
const LEVEL = /^auditex: (CRITICAL|ERROR|WARNING|INFO|DEBUG): /;
const LEVELS: Readonly<Record<string, LogLevelName>> = { CRITICAL: 'error', ERROR: 'error', WARNING: 'warn', INFO: 'info', DEBUG: 'debug' };

/**
 * Reads stderr a line at a time. A line that names its level has it; the lines
 * after it that name none (a traceback, a message of several lines) share it.
 * Anything before the first named level is a crash before logging started: an error.
 */
export class StderrLevels {
    private current: LogLevelName = 'error';

    level(line: string): LogLevelName {
        const named = LEVEL.exec(line);
        if (named !== null) {
            this.current = LEVELS[named[1]];
        }
        return this.current;
    }
}
