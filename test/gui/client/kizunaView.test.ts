import { describe, expect, it } from 'vitest';
import { FIT_MIN_WIDTH, fitBox, MAX_VIEW_WIDTH, MIN_VIEW_WIDTH, panBy, wheelFactor, withAspect, zoomAt } from '../../../src/gui/client/lib/kizunaView.js';

const fallback = { x: 0, y: 0, w: 800, h: 520 };

describe('fitBox', () => {
  it('zooms in when the nodes sit close together', () => {
    const box = fitBox([{ x: 380, y: 240, w: 60, h: 60 }, { x: 460, y: 240, w: 60, h: 60 }], 2, fallback);
    expect(box.w).toBeLessThan(800);
    expect(box.w / box.h).toBeCloseTo(2);
    expect(box.x).toBeLessThanOrEqual(380);
    expect(box.x + box.w).toBeGreaterThanOrEqual(520);
  });

  it('zooms out when they spread beyond the current view', () => {
    const box = fitBox([{ x: -900, y: 0, w: 50, h: 50 }, { x: 1800, y: 1200, w: 50, h: 50 }], 1.5, fallback);
    expect(box.w).toBeGreaterThan(2700);
    expect(box.y).toBeLessThanOrEqual(0);
    expect(box.y + box.h).toBeGreaterThanOrEqual(1250);
  });

  it('keeps a minimum size around a single node and the default box when empty', () => {
    expect(fitBox([{ x: 0, y: 0, w: 48, h: 70 }], 1, fallback).w).toBe(FIT_MIN_WIDTH);
    expect(fitBox([], 800 / 520, fallback)).toEqual(withAspect(fallback, 800 / 520));
  });
});

describe('zoom and pan', () => {
  it('wheel down zooms out, up zooms in, around the pointer', () => {
    expect(wheelFactor(100)).toBeGreaterThan(1);
    expect(wheelFactor(-100)).toBeLessThan(1);
    const box = { x: 0, y: 0, w: 800, h: 400 };
    const focus = { x: 200, y: 100 };
    const zoomed = zoomAt(box, 0.5, focus);
    expect(zoomed.w).toBe(400);
    // The point under the pointer stays where it was on screen (same fraction of the view).
    expect((focus.x - zoomed.x) / zoomed.w).toBeCloseTo((focus.x - box.x) / box.w);
    expect((focus.y - zoomed.y) / zoomed.h).toBeCloseTo((focus.y - box.y) / box.h);
  });

  it('clamps the zoom', () => {
    expect(zoomAt({ x: 0, y: 0, w: 200, h: 100 }, 0.01, { x: 0, y: 0 }).w).toBe(MIN_VIEW_WIDTH);
    expect(zoomAt({ x: 0, y: 0, w: 10_000, h: 5000 }, 100, { x: 0, y: 0 }).w).toBe(MAX_VIEW_WIDTH);
  });

  it('drag-to-pan moves the view against the drag', () => {
    expect(panBy({ x: 10, y: 20, w: 800, h: 400 }, { x: 100, y: 100 }, { x: 150, y: 80 })).toEqual({ x: -40, y: 40, w: 800, h: 400 });
  });
});
