import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onPageGone, type PageEvents } from './page-lifetime';

function fakeContents(): EventEmitter & PageEvents {
  return new EventEmitter() as EventEmitter & PageEvents;
}

describe('onPageGone', () => {
  it('tells a reload or other navigation of the page, a crash and a closed window', () => {
    const contents = fakeContents();
    const told: string[] = [];
    onPageGone(contents, () => told.push('gone'));
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    contents.emit('render-process-gone');
    contents.emit('destroyed');
    expect(told).toEqual(['gone', 'gone', 'gone']);
  });

  it('keeps the page through a fragment change and a subframe navigation', () => {
    const contents = fakeContents();
    let told = 0;
    onPageGone(contents, () => told++);
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    contents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false });
    expect(told).toBe(0);
  });

  it('stops telling once stopped', () => {
    const contents = fakeContents();
    let told = 0;
    const stop = onPageGone(contents, () => told++);
    stop();
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    contents.emit('destroyed');
    expect(told).toBe(0);
    expect(contents.listenerCount('did-start-navigation')).toBe(0);
  });
});
