<?php

declare(strict_types=1);

namespace Caisse\Tests;

use PHPUnit\Framework\TestCase;

/**
 * Composer installs the client from a path (this folder's composer.json) or from the repository's
 * git URL, where Composer reads the composer.json at the repository's root: both describe the same
 * package, and the root one loads its classes from this folder.
 */
final class ComposerTest extends TestCase
{
    /** @return array<string, mixed> */
    private static function read(string $path): array
    {
        return json_decode((string) file_get_contents($path), true, 512, JSON_THROW_ON_ERROR);
    }

    public function testTheRepositoryRootDescribesThisPackage(): void
    {
        $root = dirname(__DIR__, 3);
        $own = self::read(dirname(__DIR__) . '/composer.json');
        $fromGit = self::read($root . '/composer.json');
        self::assertSame($own['name'], $fromGit['name']);
        self::assertSame($own['require'], $fromGit['require']);
        self::assertSame($own['license'], $fromGit['license']);

        // Every class of the client loads through the root's PSR-4 mapping, as Composer's autoloader would.
        $mapping = $fromGit['autoload']['psr-4'];
        self::assertSame(['Caisse\\'], array_keys($mapping));
        $dir = $root . '/' . rtrim($mapping['Caisse\\'], '/');
        self::assertSame(realpath(dirname(__DIR__) . '/src'), realpath($dir));
        $classes = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir, \FilesystemIterator::SKIP_DOTS));
        $count = 0;
        foreach ($classes as $file) {
            $relative = substr((string) $file, strlen($dir) + 1, -strlen('.php'));
            $class = 'Caisse\\' . str_replace('/', '\\', $relative);
            self::assertTrue(class_exists($class) || interface_exists($class), $class);
            $count++;
        }
        self::assertGreaterThan(10, $count);
    }
}
