// The benchmark's progress lines, each stamped with the time of day.
export const log = (line) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
