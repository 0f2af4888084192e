import * as vscode from 'vscode';
import type { LiveProject } from '../project/liveProject';
import type { Projects } from '../project/projects';

/** The project a command is about: the one given, the only one, or one the user picks. */
export async function chooseProject(
  projects: Projects,
  projectId: string | undefined,
  title: string,
): Promise<LiveProject | undefined> {
  if (projectId) return projects.find(projectId);
  const all = projects.all;
  if (all.length <= 1) {
    if (all.length === 0) void vscode.window.showInformationMessage('Context Deck: no project is open.');
    return all[0];
  }
  const picked = await vscode.window.showQuickPick(
    all.map((live) => ({ label: live.name, description: live.engine.identity.mainRoot, live })),
    { title, placeHolder: 'Project' },
  );
  return picked?.live;
}
