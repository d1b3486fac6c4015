/**
 * When the window's page goes away: a reload or any other cross-document navigation of the main
 * frame (told as it starts, before the next page can call anything), its renderer crashing, or
 * the window closing. The core then closes what the old page had opened (AppCore.windowGone):
 * a page that is gone cannot close its book streams itself. Electron types only, so it runs under
 * node with a fake WebContents.
 */

/** What of a navigation this needs (electron's did-start-navigation details carry it). */
export interface NavigationStart {
  readonly isMainFrame: boolean;
  readonly isSameDocument: boolean;
}

/** The part of WebContents watched (electron's WebContents satisfies it). */
export interface PageEvents {
  on(event: 'did-start-navigation', listener: (details: NavigationStart) => void): unknown;
  on(event: 'render-process-gone' | 'destroyed', listener: () => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
}

/** Calls `gone` each time the page goes away; returns a function that stops watching. */
export function onPageGone(contents: PageEvents, gone: () => void): () => void {
  const navigating = (details: NavigationStart): void => {
    // A fragment or history.pushState change keeps the page (and what it opened).
    if (details.isMainFrame && !details.isSameDocument) gone();
  };
  const ended = (): void => gone();
  contents.on('did-start-navigation', navigating);
  contents.on('render-process-gone', ended);
  contents.on('destroyed', ended);
  return () => {
    contents.removeListener('did-start-navigation', navigating);
    contents.removeListener('render-process-gone', ended);
    contents.removeListener('destroyed', ended);
  };
}
