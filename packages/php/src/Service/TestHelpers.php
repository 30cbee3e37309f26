<?php

declare(strict_types=1);

namespace Caisse\Service;

use Caisse\HttpClient;

/** Test mode only (the API answers 404 with live keys): what a test of an integration needs. */
final class TestHelpers extends Service
{
    public function __construct(HttpClient $http, private readonly bool $testMode)
    {
        parent::__construct($http);
    }

    /** @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function createUser(array $params, array $options = []): array
    {
        return $this->http->request('POST', '/test/users', [], $params, $options);
    }

    /** @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function fundWallet(array $params, array $options = []): array
    {
        return $this->http->request('POST', '/test/wallets/fund', [], $params, $options);
    }

    /** Makes every pending test-mode amount available now. @param array<string, mixed> $options @return array<string, mixed> */
    public function settleBalance(array $options = []): array
    {
        return $this->http->request('POST', '/test/balance/settle', [], null, $options);
    }

    /** The test outbox (SMS, e-mails, the sandbox's messages to payers). @param array<string, scalar|null> $params @param array<string, mixed> $options @return array<string, mixed> */
    public function listMessages(array $params = [], array $options = []): array
    {
        return $this->http->request('GET', '/test/messages', $params, null, $options);
    }

    /**
     * Starts paying the intent with mobile money as the payer's browser does, with the intent's
     * `sessionToken`: `['intentionId' => 'pi_…', 'paymentMethod' => ['provider' => …, 'phone' => …]]`.
     * In test mode the sandbox decides by the number's last digits.
     *
     * @param array<string, mixed> $params @param array<string, mixed> $options @return array<string, mixed>
     */
    public function chargeMobileMoney(string $sessionToken, array $params, array $options = []): array
    {
        if (!$this->testMode) {
            throw new \LogicException('The customer test helpers work with test keys only');
        }
        return $this->http->request('POST', '/charge', [], $params, $options, '', ['x-session-token' => $sessionToken]);
    }
}
