import type {
    ProgressToken,
    WorkDoneProgressBegin,
    WorkDoneProgressEnd,
    WorkDoneProgressReport,
} from 'vscode-languageclient/node';

// Only types come from vscode-languageclient: this module stays free of the
// vscode API so the tests can drive it with plain node.

export type ServerState = 'starting' | 'running' | 'stopped';
export type AnalysisState = 'idle' | 'checking' | 'auditing' | 'error';

/** Parameters of the server's `auditex/status` notification. */
export interface StatusParams {
    readonly state: AnalysisState;
    readonly findings?: number;
    readonly message?: string;
    readonly costUsd?: number;
}

/** What the status-bar item shows, and what clicking it runs. */
export interface StatusView {
    readonly text: string;
    readonly tooltip: string;
    readonly command: string;
}

interface ActiveProgress {
    readonly title: string;
    message?: string;
    percentage?: number;
}

const ANALYSIS_STATES: readonly string[] = ['idle', 'checking', 'auditing', 'error'];
const SPINNER = '$(sync~spin)';

/**
 * The analysis state as the status bar tells it. Work in progress (`$/progress`)
 * wins over the last `auditex/status`, which wins over nothing at all.
 */
export class AnalysisStatus {
    private server: ServerState = 'starting';
    private status: StatusParams | undefined;
    private readonly progress = new Map<ProgressToken, ActiveProgress>();

    setServerState(state: ServerState): void {
        this.server = state;
        // A new or dead server owns none of the old progress or counts.
        this.progress.clear();
        this.status = undefined;
    }

    /** Applies an `auditex/status` notification; returns false and keeps the state when `params` is malformed. */
    setStatus(params: unknown): boolean {
        const status = parseStatus(params);
        if (status === undefined) {
            return false;
        }
        this.status = status;
        return true;
    }

    onProgress(token: ProgressToken, value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void {
        switch (value.kind) {
            case 'begin':
                this.progress.set(token, { title: value.title, message: value.message, percentage: value.percentage });
                break;
            case 'report': {
                const active = this.progress.get(token);
                if (active !== undefined) {
                    active.message = value.message ?? active.message;
                    active.percentage = value.percentage ?? active.percentage;
                }
                break;
            }
            case 'end':
                this.progress.delete(token);
                break;
        }
    }

    view(): StatusView {
        if (this.server === 'stopped') {
            return {
                text: '$(circle-slash) auditex: stopped',
                tooltip: 'The auditex language server is not running. Click to restart it.',
                command: 'auditex.restartServer',
            };
        }
        const report = 'auditex.showReport';
        const latest = [...this.progress.values()].pop();
        if (latest !== undefined) {
            const percent = latest.percentage === undefined ? '' : ` ${Math.round(latest.percentage)}%`;
            return { text: `${SPINNER} ${withPrefix(latest.title)}${percent}`, tooltip: latest.message ?? latest.title, command: report };
        }
        if (this.server === 'starting') {
            return { text: `${SPINNER} auditex: starting`, tooltip: 'Starting the auditex language server.', command: report };
        }
        const status = this.status;
        if (status === undefined) {
            return { text: '$(check) auditex', tooltip: 'auditex is ready. Click to show the report.', command: report };
        }
        const cost = status.costUsd === undefined ? '' : ` ($${status.costUsd.toFixed(2)})`;
        switch (status.state) {
            case 'checking':
            case 'auditing':
                return { text: `${SPINNER} auditex: ${status.state}${cost}`, tooltip: status.message ?? `auditex is ${status.state}.`, command: report };
            case 'error':
                return { text: '$(error) auditex: error', tooltip: status.message ?? 'auditex reported an error; see the auditex output.', command: report };
            case 'idle':
                return { text: `$(check) ${findingsText(status.findings)}${cost}`, tooltip: status.message ?? 'Click to show the report.', command: report };
        }
    }
}

function withPrefix(title: string): string {
    return title.startsWith('auditex') ? title : `auditex: ${title}`;
}

function findingsText(findings: number | undefined): string {
    if (findings === undefined) {
        return 'auditex';
    }
    return `auditex: ${findings} finding${findings === 1 ? '' : 's'}`;
}

/** Reads `auditex/status` params; JSON null counts as absent, anything else malformed gives undefined. */
function parseStatus(value: unknown): StatusParams | undefined {
    if (typeof value !== 'object' || value === null) {
        return undefined;
    }
    const params = value as Record<string, unknown>;
    const state = params.state;
    const findings = optional(params.findings, 'number');
    const message = optional(params.message, 'string');
    const costUsd = optional(params.costUsd, 'number');
    if (typeof state !== 'string' || !isAnalysisState(state) || findings === null || message === null || costUsd === null) {
        return undefined;
    }
    return { state, findings, message, costUsd };
}

function isAnalysisState(state: string): state is AnalysisState {
    return ANALYSIS_STATES.includes(state);
}

/** The value if it has the type, undefined if absent, null if it has another type. */
function optional(value: unknown, type: 'number'): number | undefined | null;
function optional(value: unknown, type: 'string'): string | undefined | null;
function optional(value: unknown, type: 'number' | 'string'): unknown {
    if (value === undefined || value === null) {
        return undefined;
    }
    return typeof value === type ? value : null;
}
