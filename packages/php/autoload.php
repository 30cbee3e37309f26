<?php

declare(strict_types=1);

// The PSR-4 autoloader Composer would generate for this package, for projects without Composer
// (a WordPress plugin's zip, the tests): `require __DIR__ . '/path/to/caisse-php/autoload.php';`.
spl_autoload_register(static function (string $class): void {
    $prefix = 'Caisse\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
