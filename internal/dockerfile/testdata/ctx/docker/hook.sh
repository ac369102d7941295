#!/usr/bin/env bash
echo hook
