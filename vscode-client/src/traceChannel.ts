import { Event, EventEmitter, LogLevel, LogOutputChannel, ViewColumn, workspace } from 'vscode';

const SETTING = 'auditex.trace.server';

/**
 * The trace channel handed to the language client. vscode-languageclient traces
 * only while its trace channel's log level is Trace, and writes traces at that
 * level; this channel's level follows `auditex.trace.server` instead, and it
 * writes the traces to the auditex channel at info level, so the setting alone
 * turns tracing on and off.
 */
export class SettingTraceChannel implements LogOutputChannel {
    private readonly changed = new EventEmitter<LogLevel>();
    private readonly listener = workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING)) {
            this.changed.fire(this.logLevel);
        }
    });

    constructor(private readonly output: LogOutputChannel) {}

    get name(): string {
        return this.output.name;
    }

    get logLevel(): LogLevel {
        return workspace.getConfiguration().get<string>(SETTING, 'off') === 'off' ? LogLevel.Off : LogLevel.Trace;
    }

    get onDidChangeLogLevel(): Event<LogLevel> {
        return this.changed.event;
    }

    trace(message: string): void {
        this.output.info(message);
    }

    debug(message: string, ...args: unknown[]): void {
        this.output.debug(message, ...args);
    }

    info(message: string, ...args: unknown[]): void {
        this.output.info(message, ...args);
    }

    warn(message: string, ...args: unknown[]): void {
        this.output.warn(message, ...args);
    }

    error(error: string | Error, ...args: unknown[]): void {
        this.output.error(error, ...args);
    }

    append(value: string): void {
        this.output.append(value);
    }

    appendLine(value: string): void {
        this.output.appendLine(value);
    }

    replace(value: string): void {
        this.output.replace(value);
    }

    clear(): void {
        this.output.clear();
    }

    show(columnOrPreserveFocus?: ViewColumn | boolean, preserveFocus?: boolean): void {
        if (typeof columnOrPreserveFocus === 'boolean') {
            this.output.show(columnOrPreserveFocus);
        } else {
            this.output.show(columnOrPreserveFocus, preserveFocus);
        }
    }

    hide(): void {
        this.output.hide();
    }

    /** Leaves the auditex channel open: it outlives each language client. */
    dispose(): void {
        this.listener.dispose();
        this.changed.dispose();
    }
}
