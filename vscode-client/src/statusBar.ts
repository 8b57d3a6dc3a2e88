import { Disposable, StatusBarAlignment, StatusBarItem, window } from 'vscode';
import { AnalysisStatus } from './status';

/** The status-bar item, redrawn from an AnalysisStatus after every change. */
export class StatusBar implements Disposable {
    private readonly status = new AnalysisStatus();
    private readonly item: StatusBarItem;

    constructor() {
        this.item = window.createStatusBarItem('auditex.status', StatusBarAlignment.Left);
        this.item.name = 'auditex';
        this.render();
        this.item.show();
    }

    /** Applies `change` to the status and redraws; returns what `change` returns. */
    update<T>(change: (status: AnalysisStatus) => T): T {
        const result = change(this.status);
        this.render();
        return result;
    }

    dispose(): void {
        this.item.dispose();
    }

    private render(): void {
        const view = this.status.view();
        this.item.text = view.text;
        this.item.tooltip = view.tooltip;
        this.item.command = view.command;
    }
}
