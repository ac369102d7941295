#!/usr/bin/env bash
echo plain
