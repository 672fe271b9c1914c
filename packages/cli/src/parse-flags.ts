import { InvalidArgumentError } from 'commander';

/** A commander argument parser for a whole number from `min` (to `max`); a bad value is a usage error (exit code 2). */
export function wholeNumberFlag(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isInteger(number) || number < min || number > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `expected a whole number from ${min}`
          : `expected a whole number from ${min} to ${max}`,
      );
    }
    return number;
  };
}
